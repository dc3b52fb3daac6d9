import type { Change } from '../projection/Projection.js';
import type { TermDictionary } from './TermDictionary.js';

/** What the catalogue learns of one change: the field names of the revision it makes, if any; the dictionary's position passes it either way. */
export const learnTerms = (terms: TermDictionary, { definition, previous, next, logged }: Omit<Change, 'triples'>): void => {
  const listed = definition.listed && next !== undefined ? definition.listed(next) : undefined;
  const content = listed && definition.revision?.(previous, next, logged);
  if (!listed || content === undefined || content === 'unchanged') return terms.pass(logged.seq);
  terms.learn(logged.seq, listed.project, content.source, content.expanded.find((node) => node['@id'] === listed.id) ?? content.expanded[0]);
};
