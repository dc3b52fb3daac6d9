/**
 * RDF terms as N-Triples / SPARQL text. Every value that comes from a user reaches the store only
 * through these functions, so it is always one escaped term and never query syntax.
 */
const IRI_FORBIDDEN = /[\u0000-\u0020<>"{}|^`\\]/g;
const LITERAL_ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

const uchar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;

/**
 * The IRI as the store holds it: the characters no RDF syntax may spell in an IRI (SPARQL's
 * IRIREF forbids `<>"{}|^\`` and 0x00–0x20; a `\u` escape of them is N-Triples only, and Virtuoso
 * refuses it: SP030) percent-encoded, every other character (non-ASCII included) kept. It is the
 * spelling of the JSON-LD step too (the revision graphs: jsonld drops triples with such IRIs, N3
 * refuses even their escapes), so the catalogue, the search documents and the revision graphs name
 * an id alike on both stores. Not reversible in general (`a b` and `a%20b` meet): readers map an IRI
 * back through what they wrote (the item nodes, `parseItemNode`; a link's target, its item's links).
 */
export const spelledIri = (value: string): string => value.replace(IRI_FORBIDDEN, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * An IRI term, the one spelling of every IRI in the SPARQL text (queries and updates) and the
 * N-Triples / N-Quads text the registry writes: once spelled (`spelledIri`) an IRI holds nothing
 * either grammar forbids, so the same text serves both, and every store reads back what it wrote.
 */
export const iri = (value: string): string => `<${spelledIri(value)}>`;

const quoted = (value: string) => `"${value.replace(/[\\"\n\r\t\b\f]|[\u0000-\u001f]/g, (c) => LITERAL_ESCAPES[c] ?? uchar(c))}"`;

export const XSD = 'http://www.w3.org/2001/XMLSchema#';

export const literal = (value: string, datatype?: string): string =>
  datatype && datatype !== `${XSD}string` ? `${quoted(value)}^^${iri(datatype)}` : quoted(value);

export const integer = (value: number): string => literal(String(Math.trunc(value)), `${XSD}integer`);
export const boolean = (value: boolean): string => literal(String(value), `${XSD}boolean`);
export const dateTime = (value: string): string => literal(value, `${XSD}dateTime`);

/** An N-Quads line; with no graph (`''`) an N-Triples line. */
export const quad = (s: string, p: string, o: string, g: string): string => (g ? `${s} ${p} ${o} ${g} .\n` : `${s} ${p} ${o} .\n`);
