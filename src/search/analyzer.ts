/**
 * Words as the text index and the query translator both see them: runs of letters and digits,
 * lower-cased (the standard analyzer's words, without its special cases for `.` and `'` inside
 * words). The FTS5 `unicode61` tokenizer with `remove_diacritics 0` cuts text the same way, so a
 * word found here is a token there.
 */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];

/** An FTS5 string: the words of user input, each quoted, so no user character is FTS5 syntax. */
const quoted = (ws: string[]): string => `"${ws.join(' ')}"`;

/**
 * The FTS5 expression of a listing's `q`: the words as one phrase, the last one a prefix (what the
 * public system builds as `match_phrase_prefix`). Undefined when `q` has no word.
 */
export const phrasePrefix = (q: string): string | undefined => {
  const ws = words(q);
  return ws.length ? `${quoted(ws)} *` : undefined;
};
