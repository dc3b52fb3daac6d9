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

/**
 * A caller's query, checked before it reaches the store: it must parse (else 400 with the parser's
 * message), be a query and not an update (LOAD, INSERT, DROP...), and call no SERVICE. Its text is
 * passed on unchanged: the store fixes the dataset.
 */
export const readUserQuery = (text: string): QueryForm => {
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
