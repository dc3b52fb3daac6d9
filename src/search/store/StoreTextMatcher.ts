import sparqljs from 'sparqljs';
import type { TextMatch, TextMatcher } from '../../catalogue/textRanking.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { searchSelect } from './searchSelect.js';
import type { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import { LENGTH, phraseText, TEXT, textGraphOf, WORD } from './textGraph.js';
import type { Expression, Pattern } from './translateSearch.js';
import { filter, named, op, text, triple, variable } from './translateSearch.js';

const generator = new sparqljs.Generator();
const DOC = variable('doc');
const G = variable('g');
const T = variable('t');
const N = variable('n');

/** Whole words of a phrase its candidates are found by. */
const CANDIDATE_WORDS = 2;

/** BM25's parameters, as SQLite FTS5 and Lucene use them. */
const K1 = 1.2;
const B = 0.75;

type Rows = { [name: string]: { value: string } | undefined }[];

const aggregate = (aggregation: string, expression: Expression) => ({ type: 'aggregate', aggregation, distinct: false, expression }) as unknown as Expression;
const as = (expression: Expression, name: string) => ({ expression, variable: variable(name) }) as unknown as sparqljs.VariableExpression;

/**
 * Listings' text matcher on the external store, over the text graphs of textGraph.ts: the items
 * holding every word but the last and a word the last one begins, whose text holds the phrase; ranked
 * by BM25 (the phrase's frequency in the item's text, its number of matches and the items' lengths
 * in the searched projects), as the embedded FTS5 index ranks a phrase.
 */
export class StoreTextMatcher implements TextMatcher {
  constructor(private readonly client: SparqlHttpClient) {}

  async match(words: readonly string[], kind: string, projects: readonly ProjectRef[]): Promise<readonly TextMatch[]> {
    if (!words.length || !projects.length) return [];
    const graphs: Pattern = { type: 'values', values: projects.map((p) => ({ '?g': named(textGraphOf(kind, p)) })) } as Pattern;
    const phrase = text(phraseText(words));
    const last = variable('last');
    // The candidates: items holding the longest whole words (the rarest, likely), or a word the only
    // one begins; the phrase itself is checked on the text. Each more word to join cost Virtuoso more
    // than it narrowed (a 12-word `@id` took 1.6 s joining them all).
    const whole = [...new Set(words.slice(0, -1))].sort((a, b) => b.length - a.length).slice(0, CANDIDATE_WORDS);
    const candidates = whole.length
      ? whole.map((w) => triple(DOC, named(WORD), text(w)))
      : [triple(DOC, named(WORD), last), filter(op('strstarts', last, text(words[0]!)))];
    const inGraph: Pattern[] = [...candidates, triple(DOC, named(TEXT), T), triple(DOC, named(LENGTH), N)];
    // How often the phrase occurs: what removing it takes off the text's length, in phrase lengths.
    const frequency = op('/', op('-', op('strlen', T), op('strlen', op('replace', T, phrase, text('')))), op('strlen', phrase));
    const [matched, stats] = await Promise.all([
      this.select({
        distinct: true,
        variables: [DOC, N, as(frequency, 'f')],
        where: [graphs, { type: 'graph', name: G, patterns: inGraph } as unknown as Pattern, filter(op('contains', T, phrase))],
      }),
      this.select({
        variables: [as(aggregate('count', DOC), 'items'), as(aggregate('avg', N), 'length')],
        where: [graphs, { type: 'graph', name: G, patterns: [triple(DOC, named(LENGTH), N)] } as unknown as Pattern],
      }),
    ]);
    const items = Number(stats[0]?.['items']?.value ?? 0);
    const average = Number(stats[0]?.['length']?.value ?? 0) || 1;
    const found = matched.length;
    const idf = Math.log(1 + (items - found + 0.5) / (found + 0.5));
    return matched.map((row) => {
      const f = Math.max(1, Number(row['f']!.value));
      const length = Number(row['n']!.value);
      return { node: row['doc']!.value, score: (idf * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * length) / average)) };
    });
  }

  private async select(query: Omit<sparqljs.SelectQuery, 'type' | 'queryType' | 'prefixes'>): Promise<Rows> {
    return searchSelect<Rows[number]>(this.client, generator.stringify({ type: 'query', queryType: 'SELECT', prefixes: {}, ...query } as sparqljs.SelectQuery));
  }
}
