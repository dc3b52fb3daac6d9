import sparqljs from 'sparqljs';
import type { QueryForm } from '../store/ProjectSparqlStore.js';
import { sparqlRejections } from './sparqlRejections.js';

/** Whether a parsed query calls out somewhere (`SERVICE`), at any depth (subqueries, EXISTS, unions...). */
const callsService = (node: unknown): boolean => {
  const pending: unknown[] = [node];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!next || typeof next !== 'object') continue;
    if ((next as { type?: unknown }).type === 'service') return true;
    pending.push(...(Array.isArray(next) ? next : Object.values(next)));
  }
  return false;
};

/** Deepest nesting of groups, brackets and parentheses a query may have: the parsers recurse into each (a stack overflow past a few thousand). */
export const MAX_QUERY_NESTING = 100;

/**
 * How deep `{`, `(` and `[` nest in a query's text, outside string literals, IRIs and comments.
 * An IRI is `<` up to `>` with no space or quote between (otherwise `<` is a comparison).
 */
export const nestingDepth = (text: string): number => {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '{' || c === '(' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '<') {
      const iri = /^<[^\s<>"{}|^`]*>/.exec(text.slice(i, i + 4096));
      if (iri) i += iri[0].length - 1;
    } else if (c === '"' || c === "'") {
      const long = text.startsWith(c.repeat(3), i);
      const quote = long ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j)) j += text[j] === '\\' ? 2 : 1;
      i = j + quote.length - 1;
    }
  }
  return deepest;
};

/**
 * A caller's query, checked before it reaches the store: it must parse (else 400 with the parser's
 * message), be a query and not an update (LOAD, INSERT, DROP...), and call no SERVICE. Its text is
 * passed on unchanged: the store fixes the dataset.
 */
export const readUserQuery = (text: string): QueryForm => {
  if (nestingDepth(text) > MAX_QUERY_NESTING) throw sparqlRejections.tooDeeplyNested(MAX_QUERY_NESTING);
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser().parse(text);
  } catch (error) {
    throw sparqlRejections.malformedQuery(String((error as Error).message ?? error));
  }
  if (parsed.type === 'update') throw sparqlRejections.unsupportedOperation('SPARQL Update');
  if (callsService(parsed)) throw sparqlRejections.unsupportedOperation('SERVICE');
  return parsed.queryType.toLowerCase() as QueryForm;
};
