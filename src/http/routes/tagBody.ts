import { rejections } from '../../domain/rejections.js';
import { validTag } from '../params.js';

/** The tag body of `POST .../tags`: `{"tag": "v1", "rev": 1}`. */
export const tagBody = (body: unknown): { tag: string; rev: number } => {
  const b = body as { tag?: unknown; rev?: unknown } | undefined;
  if (!b || typeof b !== 'object' || typeof b.tag !== 'string' || !validTag(b.tag) || typeof b.rev !== 'number' || !Number.isInteger(b.rev))
    throw rejections.malformedContent('The tag payload must be {"tag": <non-empty string>, "rev": <integer>}.');
  return { tag: b.tag, rev: b.rev };
};
