import { expect } from 'chai';
import { compareNodes, nodeKey, nodeOrder } from '../../src/catalogue/nodeOrder.js';
import { ItemSlots } from '../../src/catalogue/ItemSlots.js';
import { rankedPage, RankedPage } from '../../src/catalogue/textRanking.js';
import type { RankedRow } from '../../src/catalogue/textRanking.js';

/** A deterministic pseudo-random sequence, so a failure reproduces. */
const random = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Distinct nodes sharing a long prefix, then short tails of units below, at and above 127 (and surrogates), some prefixes of others. */
const nodes = (n: number, seed: number): string[] => {
  const r = random(seed);
  const units = ['0', '1', '9', 'a', 'z', '%', '\u007e', '\u007f', '\u0080', 'é', '\uffff', '\ud83d\ude00', '\u0000'];
  const out = new Set<string>();
  while (out.size < n) {
    let tail = '';
    const length = Math.floor(r() * 9);
    for (let i = 0; i < length; i++) tail += units[Math.floor(r() * units.length)];
    out.add(`urn:registry:resources/o/p/http%3A%2F%2Fx%2F${tail}`);
  }
  return [...out];
};

describe('node order keys', () => {
  it('order nodes exactly as strings do, the keys deciding where they differ', () => {
    for (const seed of [1, 2, 3]) {
      const list = nodes(400, seed).map((node) => ({ node }));
      const order = nodeOrder(list);
      expect(order.prefix.startsWith('urn:registry:resources/o/p/http%3A%2F%2Fx%2F')).to.equal(true);
      const wrong: string[] = [];
      for (let i = 0; i < list.length; i++)
        for (let j = 0; j < list.length; j += 3) {
          const [a, b] = [list[i]!.node, list[j]!.node];
          if (Math.sign(compareNodes(a, order.keys[i]!, b, order.keys[j]!)) !== byString(a, b)) wrong.push(`${a} / ${b}`);
          // Different keys alone tell the order.
          if (order.keys[i] !== order.keys[j] && Math.sign(order.keys[i]! - order.keys[j]!) !== byString(a, b)) wrong.push(`keys of ${a} / ${b}`);
        }
      expect(wrong).to.deep.equal([]);
    }
  });

  it('give a node outside the list its key when it has the prefix, NaN otherwise, and are kept per list', () => {
    const list = ['urn:a/x1', 'urn:a/x22', 'urn:a/x3'].map((node) => ({ node }));
    const order = nodeOrder(list);
    expect(order.prefix).to.equal('urn:a/x');
    expect(nodeOrder(list)).to.equal(order);
    expect(compareNodes('urn:a/x2', nodeKey('urn:a/x2', order), 'urn:a/x22', order.keys[1]!)).to.be.below(0);
    expect(nodeKey('urn:b', order)).to.be.NaN;
    expect(compareNodes('urn:b', NaN, 'urn:a/x1', order.keys[0]!)).to.be.above(0);
    expect(nodeOrder([]).keys.length).to.equal(0);
  });

  it('rank pages the same with keys as with strings, by offset and after a cursor, with many ties', () => {
    const r = random(11);
    const names = nodes(300, 5);
    const rows: RankedRow[] = names.map((node) => ({ node, score: Math.floor(r() * 3), exact: r() < 0.02 }));
    const order = nodeOrder(rows);
    const keyed = (page: { offset: number; limit: number; after?: RankedRow }) => {
      const collector = new RankedPage(page, order);
      rows.forEach((row, at) => collector.add(row.node, row.score, row.exact, order.keys[at]));
      return collector.page();
    };
    for (const page of [
      { offset: 0, limit: 10 },
      { offset: 37, limit: 25 },
      { offset: 0, limit: 0 },
      { offset: 0, limit: 400 },
    ])
      expect(keyed(page)).to.deep.equal(rankedPage(rows, page));
    const all = rankedPage(rows, { offset: 0, limit: 400 });
    for (const at of [0, 5, 120, 299]) {
      const after = all[at]!;
      expect(keyed({ offset: 0, limit: 20, after })).to.deep.equal(all.slice(at + 1, at + 21));
      // A cursor on a node the list does not hold (an item deleted since) is placed as well.
      const gone = { ...after, node: `${after.node}~` };
      expect(keyed({ offset: 0, limit: 20, after: gone })).to.deep.equal(rankedPage(rows, { offset: 0, limit: 20, after: gone }));
    }
  });
});

describe('item slots', () => {
  it('keeps each item its list and deprecation, reuses freed numbers and grows', () => {
    const slots = new ItemSlots<string>();
    const numbers = Array.from({ length: 3000 }, (_, i) => slots.add(`i${i}`, i % 7, i % 3 === 0));
    expect(new Set(numbers).size).to.equal(3000);
    expect([slots.item(numbers[2999]!), slots.list(numbers[2999]!), slots.deprecated(numbers[2999]!)]).to.deep.equal(['i2999', 3, false]);
    slots.setDeprecated(numbers[10]!, true);
    expect(slots.deprecated(numbers[10]!)).to.equal(true);
    slots.remove(numbers[10]!);
    expect(slots.item(numbers[10]!)).to.equal(undefined);
    const again = slots.add('new', 2, false);
    expect(again).to.equal(numbers[10]);
    expect([slots.item(again), slots.list(again), slots.deprecated(again)]).to.deep.equal(['new', 2, false]);
  });
});
