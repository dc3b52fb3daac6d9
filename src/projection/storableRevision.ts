import { rejections } from '../domain/rejections.js';
import { Rejection } from '../kernel/Rejection.js';
import type { JsonObject } from '../kernel/json.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { GraphStore } from '../store/GraphStore.js';

/**
 * Refuses, before anything is appended, an expanded payload whose revision graph the store could
 * not load (a malformed language tag, an IRI its parser refuses): the projection of a logged event
 * must never fail. The rejection names the offending triple, not the parser's internals.
 */
export const storableRevision =
  (jsonld: JsonLdProcessor, store: Pick<GraphStore, 'refusedLine'>) =>
  async (expanded: JsonObject[]): Promise<void> => {
    // Judged already by the write's worker, with the store's own check (see JsonLdProcessor).
    const judged = jsonld.refusal(expanded);
    const refused = judged === undefined ? store.refusedLine(await triplesOf(jsonld, expanded)) : judged || undefined;
    if (refused !== undefined)
      throw rejections.invalidJsonLd(
        `the triple '${refused.slice(0, 300)}' cannot be stored: check its language tag (BCP 47, e.g. 'en' or 'en-GB'), IRIs and typed value`,
      );
  };

const triplesOf = async (jsonld: JsonLdProcessor, expanded: JsonObject[]): Promise<string> => {
  try {
    return await jsonld.toNQuads(expanded);
  } catch (error) {
    if (error instanceof Rejection) throw error;
    throw rejections.invalidJsonLd('its triples cannot be written as RDF; check its IRIs, language tags and typed values');
  }
};
