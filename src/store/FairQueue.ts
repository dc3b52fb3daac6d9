/**
 * Items waiting in lanes, one lane per key (a caller), taken in turn across lanes and in order
 * within each: a caller with many items waiting gets its turn as often as one with a single item,
 * never all the turns (issue 32: one tenant's queries held every SPARQL worker).
 */
export class FairQueue<T> {
  /** A Map keeps insertion order: a lane served goes to the back, behind the others. */
  private readonly lanes = new Map<string, T[]>();
  private count = 0;

  push(key: string, item: T): void {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = []));
    lane.push(item);
    this.count++;
  }

  /** The oldest item of the first lane in turn whose key `may` take one; that lane then waits behind the others. */
  take(may: (key: string) => boolean): T | undefined {
    for (const [key, lane] of this.lanes) {
      if (!may(key)) continue;
      const item = lane.shift()!;
      this.count--;
      this.lanes.delete(key);
      if (lane.length) this.lanes.set(key, lane);
      return item;
    }
    return undefined;
  }

  get size(): number {
    return this.count;
  }

  /** Every item, the queue left empty. */
  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    this.count = 0;
    return all;
  }
}
