/**
 * Numbers that order a list's item nodes as strings do, mostly without reading the strings: a `q`
 * listing ranks its matches by score, then by node, and a common word's matches often all have the
 * same score (same-shaped documents), so every match was compared by node; at 100k items those
 * string reads cost more than the rest of the ranking. A node's key packs the 6 UTF-16 units that
 * follow the prefix all nodes of the list share: when two keys differ they order the nodes, when
 * they are equal (or NaN, for a node without the prefix) only the strings can tell.
 */
export interface NodeOrder {
  prefix: string;
  /** The key of each node of the list, by place. */
  keys: Float64Array;
}

const UNITS = 6;

const kept = new WeakMap<readonly { node: string }[], NodeOrder>();

/** The keys of a list's nodes, computed once per list (a text index keeps its lists while they hold). */
export const nodeOrder = (nodes: readonly { node: string }[]): NodeOrder => {
  let order = kept.get(nodes);
  if (!order) {
    const prefix = commonPrefix(nodes);
    const keys = new Float64Array(nodes.length);
    for (let at = 0; at < nodes.length; at++) keys[at] = packed(nodes[at]!.node, prefix.length);
    order = { prefix, keys };
    kept.set(nodes, order);
  }
  return order;
};

/** The key of a node outside the list (a cursor's, an exact match without the word), NaN without the prefix. */
export const nodeKey = (node: string, order: NodeOrder): number => (node.startsWith(order.prefix) ? packed(node, order.prefix.length) : NaN);

/** Orders two nodes by their keys when these tell, else as strings. */
export const compareNodes = (a: string, aKey: number, b: string, bKey: number): number => (aKey < bKey ? -1 : aKey > bKey ? 1 : a < b ? -1 : a > b ? 1 : 0);

const commonPrefix = (nodes: readonly { node: string }[]): string => {
  if (!nodes.length) return '';
  const first = nodes[0]!.node;
  let length = first.length;
  for (const { node } of nodes) {
    let i = 0;
    while (i < length && node.charCodeAt(i) === first.charCodeAt(i)) i++;
    length = i;
  }
  return first.slice(0, length);
};

/**
 * 8 bits a unit: 0 past the end, 1-127 for units 0-126, 128 for a higher unit, which also ends the
 * key (what follows it cannot be packed in order). Keys then differ only where the strings do, in
 * the same direction; 48 bits fit a double exactly.
 */
const packed = (node: string, from: number): number => {
  let key = 0;
  let open = true;
  for (let i = 0; i < UNITS; i++) {
    let digit = 0;
    if (open && from + i < node.length) {
      const unit = node.charCodeAt(from + i);
      digit = unit < 127 ? unit + 1 : 128;
      open = unit < 127;
    } else open = false;
    key = key * 256 + digit;
  }
  return key;
};
