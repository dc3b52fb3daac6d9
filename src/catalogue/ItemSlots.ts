/**
 * Dense numbers for the catalogue's items, with the two fields every `q` listing tests on each match
 * (the item's list, i.e. kind and project, and whether it is deprecated) in typed arrays. Read from
 * 100k objects scattered over a large heap, those fields cost ~0.5 µs a match in cache misses, most
 * of a common word's listing; from these arrays, a few nanoseconds. A freed number is reused, so
 * numbers held across a removal must be dropped (CatalogueIndex counts removals for that).
 */
export class ItemSlots<T> {
  private readonly items: (T | undefined)[] = [];
  private readonly free: number[] = [];
  private lists = new Int32Array(1024);
  private deprecations = new Uint8Array(1024);

  /** A number for a new item. */
  add(item: T, list: number, deprecated: boolean): number {
    const slot = this.free.pop() ?? this.items.length;
    if (slot >= this.lists.length) this.grow(slot + 1);
    this.items[slot] = item;
    this.lists[slot] = list;
    this.deprecations[slot] = deprecated ? 1 : 0;
    return slot;
  }

  setDeprecated(slot: number, deprecated: boolean): void {
    this.deprecations[slot] = deprecated ? 1 : 0;
  }

  remove(slot: number): void {
    this.items[slot] = undefined;
    this.free.push(slot);
  }

  item(slot: number): T | undefined {
    return this.items[slot];
  }

  list(slot: number): number {
    return this.lists[slot]!;
  }

  deprecated(slot: number): boolean {
    return this.deprecations[slot] === 1;
  }

  private grow(wanted: number): void {
    let size = this.lists.length;
    while (size < wanted) size *= 2;
    const lists = new Int32Array(size);
    lists.set(this.lists);
    this.lists = lists;
    const deprecations = new Uint8Array(size);
    deprecations.set(this.deprecations);
    this.deprecations = deprecations;
  }
}
