import type { ResourceStates } from '../domain/resources/resourcePorts.js';
import type { RevisionReader } from '../domain/resources/RevisionReader.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import { resourceKey, schemaKey } from '../kernel/logKeys.js';
import { Lru } from '../util/Lru.js';
import type { RevisionTriples } from './SchemaImports.js';

/**
 * The triples of a pinned revision of a schema or resource, read back from the log (the source of
 * truth) rather than from the triple store: validation does not depend on which store runs or on
 * what it holds. Revisions are immutable, so each one is converted once and kept.
 */
export const pinnedRevisionTriples = (
  states: { schemas: ResourceStates; resources: ResourceStates },
  reader: RevisionReader,
  jsonld: JsonLdProcessor,
): RevisionTriples => {
  const kept = new Lru<string, Promise<string>>(2_000);
  let revisions = 0;
  return async (kind, project, id, rev) => {
    const state = await (kind === 'schemas' ? states.schemas.get(schemaKey(project, id)) : states.resources.get(resourceKey(project, id)));
    if (!state || rev > state.rev) return '';
    const key = `${kind}\n${project}\n${id}\n${rev}\n${state.seqs[0]}`;
    let triples = kept.get(key);
    if (!triples) {
      const label = `r${++revisions}`;
      triples = reader.at(state, rev).then(async ({ content }) => ownBlankNodes(await jsonld.toNQuads(content.expanded), label));
      triples.catch(() => kept.delete(key));
      kept.set(key, triples);
    }
    return triples;
  };
};

/**
 * Blank node labels of one revision made its own (`_:b0` becomes `_:r7_b0`): the triples of a
 * schema and of its imports are read together, and each conversion numbers its blank nodes from 0.
 * In N-Triples a blank node is the subject at the start of a line or the object before its end.
 */
const ownBlankNodes = (triples: string, label: string): string =>
  triples.replace(/^_:(\S+) /gm, `_:${label}_$1 `).replace(/ _:(\S+) \.$/gm, ` _:${label}_$1 .`);
