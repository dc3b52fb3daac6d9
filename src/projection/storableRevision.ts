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
    let triples: string;
    try {
      triples = await jsonld.toNQuads(expanded);
    } catch (error) {
      if (error instanceof Rejection) throw error;
      throw rejections.invalidJsonLd('its triples cannot be written as RDF; check its IRIs, language tags and typed values');
    }
    const refused = store.refusedLine(triples);
    if (refused !== undefined)
      throw rejections.invalidJsonLd(
        `the triple '${refused.slice(0, 300)}' cannot be stored: check its language tag (BCP 47, e.g. 'en' or 'en-GB'), IRIs and typed value`,
      );
  };
