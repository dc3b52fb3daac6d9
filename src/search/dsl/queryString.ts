import { searchRejections } from '../searchRejections.js';

/** A `query_string` in its simple syntax, parsed: words, phrases, prefixes, fields, AND/OR/NOT, +/-, groups. */
export type QsNode =
  { kind: 'term' | 'phrase' | 'prefix'; text: string; field?: string } | { kind: 'bool'; must: QsNode[]; should: QsNode[]; mustNot: QsNode[] };

type Occur = 'must' | 'should' | 'mustNot';

const unsupported = (construct: string) => searchRejections.unsupportedConstruct(`query_string ${construct}`, 'syntax of [query_string]');

/** Syntax of the full Lucene grammar this parser does not evaluate, refused by name. */
const REFUSED: [RegExp, string][] = [
  [/[[\]{}]/, "range '[a TO b]'"],
  [/~/, "fuzzy or proximity '~'"],
  [/\^/, "boost '^'"],
  [/(^|\s)\//, "regular expression '/.../'"],
  [/\?/, "wildcard '?'"],
  [/(^|[\s(])_exists_:/, "'_exists_'"],
  [/&&|\|\|/, "'&&' or '||'"],
];

/** Deepest nesting of groups a query_string may have: parsing and evaluation recurse into each. */
export const MAX_QS_NESTING = 32;

export const parseQueryString = (query: string, defaultOperator: 'and' | 'or'): QsNode => {
  const outsideQuotes = query.replace(/"[^"]*"/g, '""');
  for (const [re, name] of REFUSED) if (re.test(outsideQuotes)) throw unsupported(name);
  const tokens = query.match(/[^\s()"]+:"[^"]*"|"[^"]*"|\(|\)|[^\s()]+/g) ?? [];
  let i = 0;
  let depth = 0;
  const group = (): QsNode => {
    const clauses: { occur: Occur; node: QsNode }[] = [];
    let pending: 'and' | 'or' | undefined;
    let negate = false;
    while (i < tokens.length && tokens[i] !== ')') {
      const t = tokens[i++]!;
      if (t === 'AND' || t === 'OR') {
        pending = t === 'AND' ? 'and' : 'or';
        continue;
      }
      if (t === 'NOT') {
        negate = true;
        continue;
      }
      let occur: Occur = defaultOperator === 'and' ? 'must' : 'should';
      let text = t;
      if (text.startsWith('+')) ((occur = 'must'), (text = text.slice(1)));
      else if (text.startsWith('-')) ((occur = 'mustNot'), (text = text.slice(1)));
      let node: QsNode;
      if (text === '(') node = parenthesised();
      else if (text === '' && tokens[i] === '(') {
        i++;
        node = parenthesised();
      } else node = leaf(text);
      if (negate) ((occur = 'mustNot'), (negate = false));
      if (pending === 'and') {
        const previous = clauses[clauses.length - 1];
        if (previous && previous.occur === 'should') previous.occur = 'must';
        if (occur === 'should') occur = 'must';
      } else if (pending === 'or' && occur === 'must' && !t.startsWith('+')) occur = 'should';
      pending = undefined;
      clauses.push({ occur, node });
    }
    const pick = (o: Occur) => clauses.filter((c) => c.occur === o).map((c) => c.node);
    return { kind: 'bool', must: pick('must'), should: pick('should'), mustNot: pick('mustNot') };
  };
  const parenthesised = (): QsNode => {
    if (++depth > MAX_QS_NESTING) throw searchRejections.tooDeeplyNested(MAX_QS_NESTING, '[query_string]');
    const node = group();
    depth--;
    if (tokens[i] !== ')') throw searchRejections.malformedSearchQuery('[query_string] has an unclosed parenthesis.');
    i++;
    return node;
  };
  const leaf = (text: string): QsNode => {
    const colon = text.startsWith('"') ? -1 : text.indexOf(':');
    let field: string | undefined;
    if (colon > 0) {
      field = text.slice(0, colon).replace(/\\/g, '');
      text = text.slice(colon + 1);
      if (text === '' && tokens[i]?.startsWith('"')) text = tokens[i++]!;
      if (text === '' && tokens[i] === '(') throw unsupported("field group 'field:(...)'");
    }
    const at = field === undefined ? {} : { field };
    if (text.startsWith('"')) return { kind: 'phrase', text: text.replace(/^"|"$/g, ''), ...at };
    if (text.endsWith('*') && !text.slice(0, -1).includes('*')) return { kind: 'prefix', text: text.slice(0, -1), ...at };
    if (text.includes('*')) throw unsupported("wildcard '*' inside a word");
    return { kind: 'term', text, ...at };
  };
  const root = group();
  if (i < tokens.length) throw searchRejections.malformedSearchQuery('[query_string] has an unmatched closing parenthesis.');
  return root;
};
