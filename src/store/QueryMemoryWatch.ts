/**
 * A bound on the memory the SPARQL endpoint's queries may take. Oxigraph evaluates in WebAssembly,
 * whose memory a worker's `resourceLimits` do not cover and which only grows (up to 4 GiB a worker):
 * a sorted cartesian product is not stopped by a row cap. While queries run, the process' resident
 * memory is sampled; once it has grown past the cap above the lowest point seen since they began,
 * `over` is called to stop one of them (its worker is replaced, which gives the memory back).
 * The growth is the process', not one worker's: a worker being replaced meanwhile counts too, which is
 * why the cap is a generous bound, not an accounting.
 */
export class QueryMemoryWatch {
  private timer: NodeJS.Timeout | undefined;
  private lowest = Infinity;

  constructor(
    private readonly capBytes: number,
    private readonly over: (grownBytes: number) => void,
    private readonly rss: () => number = () => process.memoryUsage.rss(),
    private readonly everyMillis = 50,
  ) {}

  /** Queries are running: sample until `idle`. */
  running(): void {
    if (this.timer) return;
    this.lowest = this.rss();
    this.timer = setInterval(() => this.sample(), this.everyMillis);
    this.timer.unref();
  }

  /** Growth until now is not the queries': measure from the next sample. */
  rebase(): void {
    this.lowest = Infinity;
  }

  idle(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  sample(): void {
    const now = this.rss();
    this.lowest = Math.min(this.lowest, now);
    const grown = now - this.lowest;
    if (grown <= this.capBytes) return;
    // What the stopped query held is given back as its worker goes: measure afresh from here.
    this.lowest = Infinity;
    this.over(grown);
  }
}
