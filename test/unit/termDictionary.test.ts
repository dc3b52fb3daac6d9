import { expect } from 'chai';
import { TermDictionary } from '../../src/catalogue/TermDictionary.js';

describe('TermDictionary', () => {
  it('learns the property a field name stands for and prefers the most used one per scope', () => {
    let seq = 0;
    const terms = new TermDictionary();
    terms.learn(++seq, 'o/a', { '@context': {}, name: 'x', knows: 'y' }, { '@id': 'i', 'http://schema.org/name': [], 'http://schema.org/knows': [] });
    terms.learn(++seq, 'o/a', { name: 'x' }, { 'http://schema.org/name': [] });
    terms.learn(++seq, 'o/b', { name: 'x' }, { 'http://xmlns.com/foaf/0.1/name': [] });
    terms.learn(++seq, 'o/b', { name: 'x' }, { 'http://xmlns.com/foaf/0.1/name': [] });
    terms.learn(++seq, 'o/b', { name: 'x' }, { 'http://xmlns.com/foaf/0.1/name': [] });
    terms.learn(++seq, 'o/b', { nm: 'x' }, { 'http://schema.org/name': [] });
    expect(terms.predicateFor('name', ['o/a'])).to.equal('http://schema.org/name');
    expect(terms.predicateFor('name', ['o/b'])).to.equal('http://xmlns.com/foaf/0.1/name');
    expect(terms.predicateFor('name')).to.equal('http://xmlns.com/foaf/0.1/name');
    expect(terms.predicateFor('knows', ['o/a'])).to.equal('http://schema.org/knows');
    expect(terms.predicateFor('nm', ['o/b'])).to.equal(undefined);
    const restored = new TermDictionary();
    restored.replace(JSON.parse(terms.serialize()));
    expect(restored.predicateFor('name', ['o/a'])).to.equal('http://schema.org/name');
  });
});
