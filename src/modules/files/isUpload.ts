import type { IncomingMessage } from 'node:http';

/** A file upload: `POST` or `PUT` of a multipart body under `/v1/files/`, streamed and bounded by its storage's limits as it arrives. */
export const isUpload = (req: IncomingMessage): boolean =>
  (req.method === 'POST' || req.method === 'PUT') &&
  (req.url?.startsWith('/v1/files/') ?? false) &&
  (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
