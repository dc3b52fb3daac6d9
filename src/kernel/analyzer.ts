/**
 * Words as the text index and the query translator both see them: runs of letters and digits,
 * lower-cased (the standard analyzer's words, without its special cases for `.` and `'` inside
 * words). The FTS5 `unicode61` tokenizer with `remove_diacritics 0` cuts text the same way, so a
 * word found here is a token there.
 */
export const words = (text: string): string[] => asciiWords(text) ?? text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];

/**
 * The same words for ASCII text, read character by character: several times faster than the
 * Unicode expression, and a search reads every text value of a field. Undefined for other text.
 */
const asciiWords = (text: string): string[] | undefined => {
  const out: string[] = [];
  let start = -1;
  let lower = '';
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c > 127) return undefined;
    const word = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (!lower) lower = text.toLowerCase();
      out.push(lower.slice(start, i));
      start = -1;
    }
  }
  return out;
};

/** An FTS5 string: the words of user input, each quoted, so no user character is FTS5 syntax. */
const quoted = (ws: string[]): string => `"${ws.join(' ')}"`;

/**
 * The FTS5 expression of a listing's `q`: the words as one phrase, the last one a prefix (what the
 * public system builds as `match_phrase_prefix`). Undefined when `q` has no word.
 */
export const phrasePrefix = (q: string): string | undefined => {
  const ws = words(q);
  return ws.length ? phrasePrefixOf(ws) : undefined;
};

/** The FTS5 expression of words already cut by `words`: one phrase, the last word a prefix. */
export const phrasePrefixOf = (ws: readonly string[]): string => `${quoted([...ws])} *`;
