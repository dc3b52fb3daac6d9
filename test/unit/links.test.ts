import { expect } from 'chai';
import { extractLinks } from '../../src/domain/resources/links.js';

const S = 'http://schema.org/';
const ROOT = 'http://example.com/root';

describe('links of an expanded document', () => {
  it('finds direct links and links through nested blank nodes, with their predicate chains', () => {
    const links = extractLinks(
      [
        {
          '@id': ROOT,
          '@type': [`${S}Person`],
          [`${S}knows`]: [{ '@id': 'http://example.com/bob' }],
          [`${S}contribution`]: [{ [`${S}agent`]: [{ '@id': 'http://example.com/carol' }], [`${S}role`]: [{ '@value': 'author' }] }],
          [`${S}name`]: [{ '@value': 'Alice' }],
        },
      ],
      ROOT,
    );
    expect(links).to.deep.equal([
      { target: 'http://example.com/bob', paths: [`${S}knows`] },
      { target: 'http://example.com/carol', paths: [`${S}contribution`, `${S}agent`] },
    ]);
  });

  it('ignores types, literals, blank node ids and self references', () => {
    const links = extractLinks(
      [
        {
          '@id': ROOT,
          '@type': ['http://example.com/Type'],
          [`${S}self`]: [{ '@id': ROOT }],
          [`${S}blank`]: [{ '@id': '_:b0' }],
          [`${S}value`]: [{ '@value': 'http://example.com/not-a-link' }],
          [`${S}typed`]: [{ '@value': 'http://example.com/x', '@type': 'http://www.w3.org/2001/XMLSchema#anyURI' }],
        },
      ],
      ROOT,
    );
    expect(links).to.deep.equal([]);
  });

  it('keeps the shortest chain per target, then the lexicographically first, whatever the key order', () => {
    const doc = (order: 'ab' | 'ba') => {
      const a = [`${S}b`, [{ [`${S}c`]: [{ '@id': 'http://example.com/t' }] }]] as const;
      const b = [`${S}a`, [{ '@id': 'http://example.com/t' }]] as const;
      const z = [`${S}z`, [{ '@id': 'http://example.com/t' }]] as const;
      const entries = order === 'ab' ? [a, b, z] : [z, b, a];
      return [{ '@id': ROOT, ...Object.fromEntries(entries) }];
    };
    expect(extractLinks(doc('ab'), ROOT)).to.deep.equal([{ target: 'http://example.com/t', paths: [`${S}a`] }]);
    expect(extractLinks(doc('ba'), ROOT)).to.deep.equal(extractLinks(doc('ab'), ROOT));
  });

  it('reads lists and sets, and survives empty documents', () => {
    const links = extractLinks(
      [{ '@id': ROOT, [`${S}items`]: [{ '@list': [{ '@id': 'http://example.com/1' }, { '@value': 2 }, { '@id': 'http://example.com/0' }] }] }],
      ROOT,
    );
    expect(links.map((l) => l.target)).to.deep.equal(['http://example.com/0', 'http://example.com/1']);
    expect(links[0]!.paths).to.deep.equal([`${S}items`]);
    expect(extractLinks([], ROOT)).to.deep.equal([]);
  });

  it('reads the root node named by the id when there are several nodes', () => {
    const links = extractLinks(
      [
        { '@id': 'http://example.com/other', [`${S}knows`]: [{ '@id': 'http://example.com/no' }] },
        { '@id': ROOT, [`${S}knows`]: [{ '@id': 'http://example.com/yes' }] },
      ],
      ROOT,
    );
    expect(links).to.deep.equal([{ target: 'http://example.com/yes', paths: [`${S}knows`] }]);
  });
});
