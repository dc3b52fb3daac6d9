import { expect } from 'chai';
import { cursorKey, cursorTie, LANGUAGE_TAG, textDatatype } from '../../src/catalogue/payloadOrder.js';
import { XSD } from '../../src/rdf/terms.js';

describe('payload order of a cursor value', () => {
  it('puts a tagged string at its text, then its tag (lower-cased, as the stores write it)', () => {
    expect(cursorKey({ type: 'literal', value: 'Chat', 'xml:lang': 'en-GB' })).to.deep.equal({ type: 'literal', value: 'Chat' });
    expect(cursorTie({ type: 'literal', value: 'Chat', 'xml:lang': 'en-GB' })).to.equal('en-gb');
    // Untagged values keep their term and tie with no tag.
    for (const b of [
      { type: 'literal', value: 'Chat' },
      { type: 'literal', value: '1', datatype: `${XSD}integer` },
      { type: 'literal', value: 'x', datatype: 'urn:dt:a' },
      { type: 'uri', value: 'urn:x' },
    ] as const) {
      expect(cursorKey(b)).to.equal(b);
      expect(cursorTie(b)).to.equal('');
    }
  });

  it('compares plain strings and literals of datatypes outside XML Schema by their text, within their datatype', () => {
    expect(textDatatype({ type: 'literal', value: 'a' })).to.equal(`${XSD}string`);
    expect(textDatatype({ type: 'literal', value: 'a', datatype: `${XSD}string` })).to.equal(`${XSD}string`);
    expect(textDatatype({ type: 'literal', value: 'a', datatype: 'urn:dt:a' })).to.equal('urn:dt:a');
    expect(textDatatype({ type: 'literal', value: '1', datatype: `${XSD}decimal` })).to.equal(undefined);
    expect(textDatatype({ type: 'literal', value: 'a', 'xml:lang': 'fr' })).to.equal(undefined);
    expect(textDatatype({ type: 'uri', value: 'urn:x' })).to.equal(undefined);
  });

  it('knows a language tag from anything else', () => {
    for (const tag of ['en', 'en-GB', 'zh-Hant-TW', 'x-private1']) expect(LANGUAGE_TAG.test(tag), tag).to.equal(true);
    for (const tag of ['', 'en-', '-en', 'en gb', 'en_GB', 'fr"', 'é', '1en', 'en--gb']) expect(LANGUAGE_TAG.test(tag), tag).to.equal(false);
  });
});
