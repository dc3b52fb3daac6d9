import { expect } from 'chai';
import sparqljs from 'sparqljs';
import type { Pattern, SelectQuery, Term } from 'sparqljs';
import { stringify } from '../../src/store/sparql.js';
import {
  bgp,
  bool,
  dateTime,
  double,
  filter,
  inList,
  int,
  n,
  op,
  str,
  tagged,
  triple,
  triplePattern,
  typed,
  union,
  v,
  values,
} from '../../src/store/sparqlTerms.js';
import { QueryTranslator, idPattern } from '../../src/search/store/translateSearch.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const select = (where: Pattern[]): SelectQuery => ({ type: 'query', queryType: 'SELECT', variables: [v('s')], prefixes: {}, where }) as unknown as SelectQuery;
const text = (where: Pattern[]) => new sparqljs.Generator().stringify(select(where));
/** The object of the query's first triple, as a SPARQL parser reads the query back. */
const objectRead = (query: string): Term => {
  const parsed = new sparqljs.Parser().parse(query) as SelectQuery;
  const first = parsed.where![0] as { triples: { object: Term }[] };
  return first.triples[0]!.object;
};
const about = (object: Parameters<typeof triple>[2]) => text([triplePattern(v('s'), n('http://p'), object)]);

describe('the sparqljs vocabulary: one way to build terms, triples, filters and values', () => {
  it('spells an IRI as the store holds it: characters no IRIREF may hold percent-encoded, the rest kept', () => {
    expect(n('http://x.org/a b<c>"d{e}|f^g`h\\i').value).to.equal('http://x.org/a%20b%3Cc%3E%22d%7Be%7D%7Cf%5Eg%60h%5Ci');
    expect(n('http://x.org/é#frag?q=1&r').value).to.equal('http://x.org/é#frag?q=1&r');
    // Spelling twice changes nothing: an IRI read back from the store is named as it was written.
    expect(n(n('http://x.org/a b').value).value).to.equal('http://x.org/a%20b');
    const query = about(n('http://x.org/a b'));
    expect(objectRead(query)).to.deep.include({ termType: 'NamedNode', value: 'http://x.org/a%20b' });
  });

  it('types literals in their datatype lexical space', () => {
    expect(objectRead(about(int(7)))).to.deep.include({ value: '7' });
    expect(int(1.9).value).to.equal('1');
    expect(int(-1.9).value).to.equal('-1');
    expect(int(3).datatype.value).to.equal(`${XSD}integer`);
    expect([double(1.5).value, double(Infinity).value, double(-Infinity).value, double(Number.NaN).value]).to.deep.equal(['1.5', 'INF', '-INF', 'NaN']);
    expect(double(2).datatype.value).to.equal(`${XSD}double`);
    expect([bool(true).value, bool(false).datatype.value]).to.deep.equal(['true', `${XSD}boolean`]);
    expect(dateTime('2020-01-01T00:00:00Z').datatype.value).to.equal(`${XSD}dateTime`);
    // A datatype is an IRI like any other: spelled, so the query stays parseable.
    expect(typed('x', 'http://t.org/a type').datatype.value).to.equal('http://t.org/a%20type');
    expect(objectRead(about(typed('x', 'http://t.org/a type')))).to.deep.include({ value: 'x' });
  });

  it('escapes strings and keeps language tags (lower case, as stores compare them)', () => {
    const odd = 'a "quoted" \\ back\nslash\ttab }';
    expect(objectRead(about(str(odd)))).to.deep.include({ termType: 'Literal', value: odd });
    expect(str('x').datatype.value).to.equal(`${XSD}string`);
    const fr = tagged('chat', 'FR');
    expect([fr.value, fr.language]).to.deep.equal(['chat', 'fr']);
    expect(about(fr)).to.include('"chat"@fr');
    expect(objectRead(about(tagged('x', 'en-GB')))).to.deep.include({ language: 'en-gb' });
  });

  it('builds patterns: one triple alone, unions of groups, values, IN lists and filters', () => {
    expect(triplePattern(v('s'), n('http://p'), str('o'))).to.deep.equal(bgp(triple(v('s'), n('http://p'), str('o'))));
    const query = text([
      union([[triplePattern(v('s'), n('http://p'), v('o'))], [triplePattern(v('s'), n('http://q'), v('o'))]]),
      values('o', [str('a'), n('http://x/b c'), int(2)]),
      filter(inList(v('o'), [double(1), bool(true)])),
      filter(op('strstarts', op('str', v('o')), str('a"'))),
    ]);
    expect(query).to.include('UNION');
    expect(query).to.include('VALUES ?o');
    expect(query).to.include('<http://x/b%20c>');
    expect(query).to.include('IN(');
    expect(() => new sparqljs.Parser().parse(query)).not.to.throw();
  });

  it("is what the catalogue's statements and the search translation both write: the same term, the same text", () => {
    const translator = new QueryTranslator();
    const search = text([idPattern(), ...translator.translate({ range: { age: { lt: 1e999 } } })]);
    // An infinite bound is the datatype's INF, not JavaScript's "Infinity" (no xsd:double).
    expect(search).to.include('"INF"^^<http://www.w3.org/2001/XMLSchema#double>');
    const ids = text(translator.translate({ ids: { values: ['a "b"'] } }));
    expect(ids).to.include('"a \\"b\\""');
    expect(stringify(select([triplePattern(v('s'), n('http://p'), tagged('x', 'de'))]))).to.include('"x"@de');
  });
});
