import type sparqljs from 'sparqljs';
import {
  bool as booleanTerm,
  double,
  filter,
  group,
  inList,
  int as integer,
  n as named,
  op,
  str as text,
  triplePattern,
  union,
  v as variable,
  values,
} from '../../store/sparqlTerms.js';
import { words } from '../../kernel/analyzer.js';
import { isObject } from '../dsl/queryParams.js';
import { epochMillis, isDate } from '../dsl/fields.js';
// One limit of clauses for both engines: the in-process evaluator's.
import { MAX_CLAUSES } from '../dsl/queries.js';
import { searchRejections } from '../searchRejections.js';
import { dateOf, ID, valueOf, wordsOf } from './searchGraph.js';
import { holding, isWord, mayBeginWord, prefixed } from './searchText.js';

/**
 * The query DSL translated into sparqljs syntax trees over the search graphs (searchGraph.ts): a
 * query becomes the graph patterns a matching document `?doc` satisfies, plus the words whose
 * presence scores it. User input reaches the trees only as RDF terms (literals, and IRIs of the
 * documented predicate scheme built from a field path), never as query text.
 */

export type Pattern = sparqljs.Pattern;
export type Term = sparqljs.Term;
export type Expression = sparqljs.Expression;

const unsupported = (construct: string) => searchRejections.unsupportedConstruct(construct, 'not translated into SPARQL for the external triple store');
const malformed = searchRejections.malformedSearchQuery;

export const DOC = variable('doc');
export const DOC_ID = variable('id');

/** A word whose presence in a field scores a document (the weights are its inverse document frequency). */
export interface ScoredWord {
  field: string;
  word: string;
}

export interface Translated {
  patterns: Pattern[];
  scored: ScoredWord[];
}

/** The field a `.keyword` sub-field stands for; undefined when the path names no sub-field. */
const keywordOf = (field: string): string | undefined => (field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : undefined);

const one = (spec: unknown, what: string): [string, unknown] => {
  if (!isObject(spec) || Object.keys(spec).length !== 1) throw malformed(`[${what}] query must name exactly one field.`);
  return Object.entries(spec)[0]!;
};

/** Translates queries, naming each clause's variables apart. */
export class QueryTranslator {
  private next = 0;
  private clauses = 0;
  readonly scored: ScoredWord[] = [];

  /** `indexed`: the store indexes the documents' texts (searchGraph.ts), their words are found there, not in word triples. */
  constructor(private readonly indexed = false) {}

  /** The score of every match when no word scores: 0 for a query of filters only (a bool without must or should), else 1. */
  constantScore(query: unknown): number {
    if (!isObject(query)) return 1;
    const bool = query['bool'];
    return isObject(bool) && bool['must'] === undefined && bool['should'] === undefined ? 0 : 1;
  }

  private fresh(): sparqljs.VariableTerm {
    return variable(`v${this.next++}`);
  }

  /** The patterns of `query`; `scoring` false under `must_not` and `filter` (no score there, as in Elasticsearch). */
  translate(query: unknown, scoring = true): Pattern[] {
    if (++this.clauses > MAX_CLAUSES) throw searchRejections.tooManyClauses(MAX_CLAUSES);
    if (!isObject(query) || Object.keys(query).length !== 1) throw malformed('A query must be an object with exactly one query type.');
    const [type, spec] = Object.entries(query)[0]!;
    switch (type) {
      case 'match_all':
        return [];
      case 'match':
        return this.match(spec, scoring);
      case 'term':
        return this.terms(...this.termSpec(spec), scoring);
      case 'terms': {
        const [field, list] = one(spec, 'terms');
        if (!Array.isArray(list)) throw malformed(`[terms] query of '${field}' must list values.`);
        return this.terms(field, list, scoring);
      }
      case 'range':
        return this.range(spec);
      case 'exists':
        return this.exists(spec);
      case 'ids': {
        const list = isObject(spec) ? spec['values'] : undefined;
        if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) throw malformed('[ids] query needs "values": a list of strings.');
        return [values('id', (list as string[]).map(text))];
      }
      case 'prefix':
        return this.prefix(spec);
      case 'bool':
        return this.bool(spec, scoring);
      default:
        throw unsupported(type);
    }
  }

  private termSpec(spec: unknown): [string, unknown[]] {
    const [field, value] = one(spec, 'term');
    return [field, [isObject(value) ? value['value'] : value]];
  }

  /** Exact values: a keyword sub-field's strings, numbers, booleans, dates, or a text field's words. */
  private terms(field: string, list: unknown[], scoring: boolean): Pattern[] {
    if (!list.length) return [filter(booleanTerm(false) as unknown as Expression)];
    if (list.some((v) => typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean'))
      throw malformed(`[terms] values of '${field}' must be strings, numbers or booleans.`);
    if (field === '_id')
      return [
        values(
          'id',
          list.map((v) => text(String(v))),
        ),
      ];
    const keyword = keywordOf(field);
    const o = this.fresh();
    if (keyword !== undefined)
      return [
        triplePattern(DOC, named(valueOf(keyword)), o),
        values(
          o.value,
          list.map((v) => text(String(v))),
        ),
      ];
    const numbers = list.filter((v): v is number => typeof v === 'number');
    const flags = list.filter((v): v is boolean => typeof v === 'boolean');
    const strings = list.filter((v): v is string => typeof v === 'string');
    const alternatives: Pattern[][] = [];
    if (numbers.length || flags.length)
      alternatives.push([triplePattern(DOC, named(valueOf(field)), o), filter(inList(o, [...numbers.map(double), ...flags.map(booleanTerm)]))]);
    const dates = strings.filter(isDate);
    if (dates.length) {
      const d = this.fresh();
      alternatives.push([
        triplePattern(DOC, named(dateOf(field)), d),
        filter(
          inList(
            d,
            dates.map((v) => integer(epochMillis(v))),
          ),
        ),
      ]);
    }
    const plain = strings.filter((v) => !isDate(v));
    if (scoring) for (const word of plain) this.scored.push({ field, word });
    if (plain.length && !this.indexed) {
      const w = this.fresh();
      alternatives.push([triplePattern(DOC, named(wordsOf(field)), w), values(w.value, plain.map(text))]);
    }
    // A value that is not one of the analyzer's words is no word of any text: it matches nothing (and scores nothing, StoreSearchEngine).
    const asWords = plain.filter(isWord);
    if (asWords.length && this.indexed) alternatives.push(holding(DOC, this.fresh(), field, asWords, false));
    if (!alternatives.length) return [filter(booleanTerm(false) as unknown as Expression)];
    return this.either(alternatives);
  }

  private either(alternatives: Pattern[][]): Pattern[] {
    if (alternatives.length === 1) return alternatives[0]!;
    return [union(alternatives)];
  }

  private match(spec: unknown, scoring: boolean): Pattern[] {
    const [field, value] = one(spec, 'match');
    const params = isObject(value) ? value : { query: value };
    for (const key of Object.keys(params)) if (key !== 'query' && key !== 'operator') throw unsupported(`match.${key}`);
    const query = params['query'];
    if (typeof query === 'number' || typeof query === 'boolean') return this.terms(field, [query], scoring);
    if (typeof query !== 'string') throw malformed(`[match] query of '${field}' must be a string, number or boolean.`);
    const keyword = keywordOf(field);
    if (keyword !== undefined || isDate(query)) return this.terms(field, [query], scoring);
    const operator = String(params['operator'] ?? 'or').toLowerCase();
    if (operator !== 'or' && operator !== 'and') throw malformed(`[match] operator must be "or" or "and".`);
    const list = [...new Set(words(query))];
    if (!list.length) return [filter(booleanTerm(false) as unknown as Expression)];
    const predicate = named(wordsOf(field));
    if (scoring) for (const word of list) this.scored.push({ field, word });
    const w = this.fresh();
    const textual = this.indexed
      ? holding(DOC, w, field, list, operator === 'and')
      : operator === 'and'
        ? list.map((word) => triplePattern(DOC, predicate, text(word)))
        : [triplePattern(DOC, predicate, w), values(w.value, list.map(text))];
    // A number written as a string matches a numeric field too, as Elasticsearch converts it.
    const number = query.trim() === '' ? Number.NaN : Number(query);
    return Number.isFinite(number) ? this.either([textual, this.terms(field, [number], false)]) : textual;
  }

  private range(spec: unknown): Pattern[] {
    const [field, bounds] = one(spec, 'range');
    if (!isObject(bounds)) throw malformed(`[range] query of '${field}' needs bounds.`);
    const operators: Record<string, string> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };
    const keyword = keywordOf(field);
    const entries = Object.entries(bounds);
    for (const [key] of entries) if (!operators[key]) throw unsupported(`range.${key}`);
    const o = this.fresh();
    const dated = entries.some(([, v]) => typeof v === 'string' && isDate(v)) && keyword === undefined;
    const conditions = entries.map(([key, bound]) => {
      if (typeof bound !== 'number' && typeof bound !== 'string') throw malformed(`[range] bound '${key}' of '${field}' must be a number or a string.`);
      if (typeof bound === 'string' && keyword === undefined && /^now|\|\|/.test(bound)) throw unsupported('date math');
      const term = keyword !== undefined ? text(String(bound)) : dated ? integer(epochMillis(String(bound))) : double(Number(bound));
      if (keyword === undefined && !dated && Number.isNaN(Number(bound))) throw malformed(`[range] bound '${key}' of '${field}' is not a number or a date.`);
      return op(operators[key]!, keyword !== undefined ? op('str', o) : o, term);
    });
    const predicate = keyword !== undefined ? valueOf(keyword) : dated ? dateOf(field) : valueOf(field);
    return [triplePattern(DOC, named(predicate), o), ...conditions.map(filter)];
  }

  private exists(spec: unknown): Pattern[] {
    const field = isObject(spec) ? spec['field'] : undefined;
    if (typeof field !== 'string') throw malformed('[exists] query needs "field".');
    const path = keywordOf(field) ?? field;
    const p = this.fresh();
    const o = this.fresh();
    // The field itself or any field below it (an object field exists when one of its fields holds a value).
    const below = `${valueOf(path)}.`;
    // Several values give several solutions: the engine keeps each matching document once (SELECT DISTINCT).
    return [triplePattern(DOC, p, o), filter(op('||', op('=', p, named(valueOf(path))), op('strstarts', op('str', p), text(below))))];
  }

  private prefix(spec: unknown): Pattern[] {
    const [field, value] = one(spec, 'prefix');
    const start = isObject(value) ? value['value'] : value;
    if (typeof start !== 'string') throw malformed(`[prefix] query of '${field}' needs a string.`);
    const keyword = keywordOf(field);
    const o = this.fresh();
    if (keyword !== undefined) return [triplePattern(DOC, named(valueOf(keyword)), o), filter(op('strstarts', op('str', o), text(start)))];
    if (this.indexed) {
      const lower = start.toLowerCase();
      return mayBeginWord(lower) ? prefixed(DOC, o, field, lower, () => this.fresh()) : [filter(booleanTerm(false) as unknown as Expression)];
    }
    return [triplePattern(DOC, named(wordsOf(field)), o), filter(op('strstarts', op('str', o), text(start.toLowerCase())))];
  }

  private bool(spec: unknown, scoring: boolean): Pattern[] {
    if (!isObject(spec)) throw malformed('[bool] query must be an object.');
    const list = (key: string): unknown[] => {
      const v = spec[key];
      return v === undefined ? [] : Array.isArray(v) ? v : [v];
    };
    for (const key of Object.keys(spec)) if (!['must', 'filter', 'should', 'must_not', 'minimum_should_match'].includes(key)) throw unsupported(`bool.${key}`);
    const must = list('must');
    const filters = list('filter');
    const should = list('should');
    const minimum = spec['minimum_should_match'];
    if (minimum !== undefined && minimum !== 1 && minimum !== '1' && minimum !== 0 && minimum !== '0')
      throw unsupported(`bool.minimum_should_match: ${JSON.stringify(minimum)}`);
    const out: Pattern[] = [];
    for (const q of must) out.push(...this.translate(q, scoring));
    for (const q of filters) out.push(...this.translate(q, false));
    for (const q of list('must_not')) out.push(filter({ type: 'operation', operator: 'notexists', args: [group(this.translate(q, false))] } as Expression));
    // As in Elasticsearch: with no must nor filter, one should clause must match; beside them, should clauses only score.
    const required = minimum === undefined ? !must.length && !filters.length : minimum === 1 || minimum === '1';
    if (should.length) {
      const alternatives = should.map((q) => this.translate(q, scoring));
      // Beside must or filter their words still score (collected as they were translated), unmatched they rule nothing out.
      if (required) out.push(...this.either(alternatives));
    }
    return out;
  }
}

export const idPattern = (): Pattern => triplePattern(DOC, named(ID), DOC_ID);
