import busboy from 'busboy';
import type { Request } from 'express';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { FilePart, FilePartSource } from '../files/FileService.js';
import { rejections } from '../../../domain/rejections.js';
import { fileRejections } from '../files/fileRejections.js';

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

/** Parts a form may have (busboy's limit): a form of many more is not an upload. */
const MAX_PARTS = 200;

/** The part's own type, else one told by the extension, else bytes. */
const mediaTypeOf = (declared: string | undefined, filename: string): string => {
  if (declared && declared !== 'application/octet-stream') return declared;
  return BY_EXTENSION[extname(filename).toLowerCase()] ?? 'application/octet-stream';
};

/**
 * The part named `file` of a multipart body, parsed with busboy as it streams: the part's bytes are
 * handed on unread, other parts are skipped, no part named `file` is `InvalidMultipartFieldName`.
 */
export const filePart = (req: Request): FilePartSource => {
  const source: FilePartSource = () =>
    new Promise<FilePart>((resolve, reject) => {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'multipart/form-data') return reject(fileRejections.notMultipart(type || 'none'));
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fields: 100, parts: MAX_PARTS } });
      } catch (error) {
        reject(fileRejections.malformedMultipart((error as Error).message));
        return;
      }
      let found = false;
      let part: Readable | undefined;
      // A request cut off midway (socket destroyed, 408): `pipe` does not pass that on, so the part's
      // stream would wait forever and its temporary file stay; it fails instead, and the store cleans up.
      const cut = () => {
        if (req.complete) return;
        const error = fileRejections.malformedMultipart('the request ended before its body was complete');
        part?.destroy(error);
        if (!found) reject(error);
      };
      req.once('aborted', cut);
      req.once('close', cut);
      req.once('error', cut);
      parser.on('file', (name, stream, info) => {
        if (name !== 'file' || found) return void stream.resume();
        found = true;
        part = stream;
        const filename = info.filename || 'file';
        resolve({ stream, filename, mediaType: mediaTypeOf(info.mimeType, filename) });
      });
      parser.on('error', (error) => {
        part?.destroy(error as Error);
        reject(fileRejections.malformedMultipart((error as Error).message));
      });
      // busboy stops reading parts past its limit without an error: the file part would go unseen.
      parser.on('partsLimit', () => {
        if (!found)
          reject(fileRejections.malformedMultipart(`the form has more than ${MAX_PARTS} parts; the part named 'file' must be among the first ${MAX_PARTS}`));
      });
      parser.on('close', () => {
        if (!found) reject(fileRejections.invalidMultipartFieldName());
      });
      req.pipe(parser);
    });
  const length = Number(req.headers['content-length']);
  if (req.headers['content-length'] !== undefined && Number.isSafeInteger(length) && length >= 0) source.declaredBytes = length;
  return source;
};
