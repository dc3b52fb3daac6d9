import type { Term } from '@rdfjs/types';
import type { ValidationResult } from 'rdf-validate-shacl/src/validation-report.js';
import type { JsonObject } from '../domain/resources/ResourceEvent.js';
import { context } from '../kernel/vocabulary.js';

const SH = 'http://www.w3.org/ns/shacl#';

/** An IRI under the SHACL namespace as the `sh:` CURIE the SHACL context defines. */
const curie = (iri: string): string => (iri.startsWith(SH) ? `sh:${iri.slice(SH.length)}` : iri);

/** A node reference (coerced to `@id` by the context), or an explicit value object for literals. */
const node = (term: Term): unknown => {
  if (term.termType === 'Literal') {
    const literal = term as Term & { language: string; datatype: { value: string } };
    if (literal.language) return { '@value': literal.value, '@language': literal.language };
    return literal.datatype.value === 'http://www.w3.org/2001/XMLSchema#string'
      ? { '@value': literal.value }
      : { '@value': literal.value, '@type': literal.datatype.value };
  }
  return term.termType === 'BlankNode' ? `_:${term.value}` : curie(term.value);
};

const result = (r: ValidationResult): JsonObject => {
  const out: JsonObject = { '@type': 'sh:ValidationResult' };
  if (r.focusNode) out['focusNode'] = node(r.focusNode);
  const messages = r.message.map((m) => m.value);
  if (messages.length) out['resultMessage'] = messages.length === 1 ? messages[0] : messages;
  if (r.path) out['sh:resultPath'] = r.path.termType === 'NamedNode' ? { '@id': r.path.value } : node(r.path);
  if (r.severity) out['resultSeverity'] = node(r.severity);
  if (r.sourceConstraintComponent) out['sourceConstraintComponent'] = node(r.sourceConstraintComponent);
  if (r.sourceShape) out['sourceShape'] = node(r.sourceShape);
  if (r.value) out['value'] = node(r.value);
  return out;
};

/** The `sh:ValidationReport` as JSON-LD with the SHACL context (the shape Delta clients read). */
export const reportJson = (conforms: boolean, targetedNodes: number, results: ValidationResult[]): JsonObject => ({
  '@context': context('shacl-20170720'),
  '@type': 'sh:ValidationReport',
  conforms,
  targetedNodes,
  ...(results.length ? { result: results.map(result) } : {}),
});
