/** What a piece of work running in turns is given: whether its slice is over, and how to give the loop back. */
export interface Turn {
  /** Whether this slice has run its time: the work should `pause()` at its next safe point. */
  due(): boolean;
  /** Hands the event loop over (I/O, other requests, the next waiting work) and resolves at this work's next turn. */
  pause(): Promise<void>;
  /** Milliseconds this work has run in its slices so far (its waits for a turn not counted). */
  spent(): number;
}

/**
 * CPU-heavy work that must run on the event loop (a search reads the in-memory text index) shares one
 * budget there: one piece of work runs at a time, for a slice of `sliceMillis`, then hands the loop
 * back with `setImmediate`, so I/O and cheap requests are served between slices, and the other
 * pieces take their turns round-robin. However many searches run, the loop is held at most one slice
 * at a time: a cheap request waits one slice, not the sum of every search in flight.
 */
export class CpuTurns {
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  private sliceStart = 0;

  constructor(private readonly sliceMillis = 10) {}

  /** Runs `work` in turns with the other work of this scheduler. */
  async run<T>(work: (turn: Turn) => Promise<T> | T): Promise<T> {
    await this.acquire();
    let spent = 0;
    let started = this.sliceStart;
    const turn: Turn = {
      due: () => performance.now() - this.sliceStart >= this.sliceMillis,
      pause: async () => {
        spent += performance.now() - started;
        await this.handOver();
        started = this.sliceStart;
      },
      spent: () => spent + (performance.now() - started),
    };
    try {
      return await work(turn);
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      this.sliceStart = performance.now();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private handOver(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      setImmediate(() => this.wakeNext());
    });
  }

  private release(): void {
    if (!this.waiting.length) {
      this.busy = false;
      return;
    }
    setImmediate(() => this.wakeNext());
  }

  private wakeNext(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.busy = false;
      return;
    }
    this.sliceStart = performance.now();
    next();
  }
}
