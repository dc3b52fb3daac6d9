import { expect } from 'chai';
import { words } from '../../src/kernel/analyzer.js';

/** What `words` must equal: the Unicode expression, which the ASCII reader only speeds up. */
const reference = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];

describe('analyzer: words', () => {
  it('reads ASCII text into the same words as the Unicode expression', () => {
    const alphabet = 'aZ09 _-.:/@#\t\n"\'()[]{}*?~^|&!,;=+%$\\`<>\x00\x7f';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2_000; n++) {
      const text = Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join('');
      expect(words(text), JSON.stringify(text)).to.deep.equal(reference(text));
    }
  });

  it('reads other text with the Unicode expression: accents, marks, scripts and capitals that change length', () => {
    for (const text of ['Café CRÈME brûlée', 'İstanbul', 'naïve e\u0301t\u00e9', 'Ωμέγα 42', '東京 タワー', 'Straße ǅ'])
      expect(words(text), text).to.deep.equal(reference(text));
  });
});
