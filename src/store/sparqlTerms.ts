import { DataFactory } from 'n3';
import type { Expression, IriTerm, LiteralTerm, Pattern, Term, Triple, VariableTerm } from 'sparqljs';
import { NXV, RDF_TYPE } from '../kernel/vocabulary.js';
import { spelledIri, XSD } from '../rdf/terms.js';

/**
 * The one vocabulary every sparqljs syntax tree is built with (the catalogue's listings, the search
 * translation, the statements' parameters): user input only ever becomes one RDF term node of the
 * tree, so it is serialised escaped and can never change the query's structure. An IRI is spelled
 * as every write spells it (`spelledIri`), so a query names what the store holds; a number is a
 * literal of its datatype's lexical space.
 */
const { namedNode, literal, variable } = DataFactory;

export const v = (name: string): VariableTerm => variable(name);
/** An IRI as the store holds it (`spelledIri`, as every write spells it). */
export const n = (iri: string): IriTerm => namedNode(spelledIri(iri));
export const nxvTerm = (local: string): IriTerm => n(NXV + local);
export const rdfType: IriTerm = n(RDF_TYPE);

/** A plain string (`xsd:string`). */
export const str = (value: string): LiteralTerm => literal(value);
/** A string with a language tag (`rdf:langString`). */
export const tagged = (value: string, language: string): LiteralTerm => literal(value, language.toLowerCase());
/** A literal of the datatype given, its IRI spelled as any other. */
export const typed = (value: string, datatype: string): LiteralTerm => literal(value, n(datatype));
/** An `xsd:integer`: the number's integer part (a fraction is no integer's lexical form). */
export const int = (value: number): LiteralTerm => typed(String(Math.trunc(value)), `${XSD}integer`);
/** An `xsd:double`: infinities spelled `INF` and `-INF`, as the datatype's lexical space has them. */
export const double = (value: number): LiteralTerm => typed(value === Infinity ? 'INF' : value === -Infinity ? '-INF' : String(value), `${XSD}double`);
export const bool = (value: boolean): LiteralTerm => typed(String(value), `${XSD}boolean`);
export const dateTime = (value: string): LiteralTerm => typed(value, `${XSD}dateTime`);

type Node = Triple['subject'] | Triple['object'];
export const triple = (subject: Node, predicate: IriTerm | VariableTerm, object: Node): Triple => ({ subject, predicate, object }) as Triple;
export const bgp = (...triples: Triple[]): Pattern => ({ type: 'bgp', triples });
/** One triple as a pattern of its own. */
export const triplePattern = (subject: Node, predicate: IriTerm | VariableTerm, object: Node): Pattern => bgp(triple(subject, predicate, object));
export const graph = (name: IriTerm | VariableTerm, patterns: Pattern[]): Pattern => ({ type: 'graph', name, patterns }) as Pattern;
export const optional = (patterns: Pattern[]): Pattern => ({ type: 'optional', patterns });
export const group = (patterns: Pattern[]): Pattern => ({ type: 'group', patterns });
export const union = (alternatives: Pattern[][]): Pattern => ({ type: 'union', patterns: alternatives.map(group) });
export const filter = (expression: Expression): Pattern => ({ type: 'filter', expression });
export const bind = (variable: VariableTerm, expression: Expression): Pattern => ({ type: 'bind', variable, expression });
/** `VALUES ?name { ... }`: one row a term. */
export const values = (name: string, terms: Term[]): Pattern => ({ type: 'values', values: terms.map((t) => ({ [`?${name}`]: t })) }) as Pattern;

export const op = (operator: string, ...args: (Expression | Term)[]): Expression => ({ type: 'operation', operator, args }) as Expression;
/** `x IN (...)`: sparqljs wants the list as one argument. */
export const inList = (x: Term, list: Term[]): Expression => ({ type: 'operation', operator: 'in', args: [x, list] }) as unknown as Expression;
export const and = (...args: Expression[]): Expression => args.reduce((a, b) => op('&&', a, b));
export const or = (...args: Expression[]): Expression => args.reduce((a, b) => op('||', a, b));
