import busboy from 'busboy';
import type { Request } from 'express';
import { extname } from 'node:path';
import type { FilePart, FilePartSource } from '../domain/files/FileService.js';
import { rejections } from '../domain/rejections.js';

/** Types told by extension when a part does not say its own (Delta detects them the same way). */
const BY_EXTENSION: Record<string, string> = {
  '.json': 'application/json',
  '.jsonld': 'application/ld+json',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.ttl': 'text/turtle',
  '.nt': 'application/n-triples',
  '.xml': 'application/xml',
};

/** The part's own type, else one told by the extension, else bytes. */
const mediaTypeOf = (declared: string | undefined, filename: string): string => {
  if (declared && declared !== 'application/octet-stream') return declared;
  return BY_EXTENSION[extname(filename).toLowerCase()] ?? 'application/octet-stream';
};

/**
 * The part named `file` of a multipart body, parsed with busboy as it streams: the part's bytes are
 * handed on unread, other parts are skipped, no part named `file` is `InvalidMultipartFieldName`.
 */
export const filePart =
  (req: Request): FilePartSource =>
  () =>
    new Promise<FilePart>((resolve, reject) => {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'multipart/form-data') return reject(rejections.notMultipart(type || 'none'));
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fields: 100, parts: 200 } });
      } catch (error) {
        reject(rejections.malformedMultipart((error as Error).message));
        return;
      }
      let found = false;
      parser.on('file', (name, stream, info) => {
        if (name !== 'file' || found) return void stream.resume();
        found = true;
        const filename = info.filename || 'file';
        resolve({ stream, filename, mediaType: mediaTypeOf(info.mimeType, filename) });
      });
      parser.on('error', (error) => reject(rejections.malformedMultipart((error as Error).message)));
      parser.on('close', () => {
        if (!found) reject(rejections.invalidMultipartFieldName());
      });
      req.pipe(parser);
    });
