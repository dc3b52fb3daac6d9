import { rejections } from '../../domain/rejections.js';
import { tagProblem } from '../params.js';

/** The tag body of `POST .../tags`: `{"tag": "v1", "rev": 1}`; a refusal names the rule the tag breaks. */
export const tagBody = (body: unknown): { tag: string; rev: number } => {
  const b = body as { tag?: unknown; rev?: unknown } | undefined;
  if (!b || typeof b !== 'object' || typeof b.tag !== 'string' || typeof b.rev !== 'number' || !Number.isInteger(b.rev))
    throw rejections.malformedContent('The tag payload must be {"tag": <non-empty string>, "rev": <integer>}.');
  const problem = tagProblem(b.tag);
  if (problem !== undefined) throw rejections.malformedContent(`The tag payload's 'tag' is invalid: ${problem}.`);
  return { tag: b.tag, rev: b.rev };
};
