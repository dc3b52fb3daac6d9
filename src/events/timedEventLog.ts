import type { EventLog } from './EventLog.js';

/** The event log with its appends timed (what the append-latency metric observes). */
export const timedEventLog = (log: EventLog, observe: (seconds: number) => void): EventLog => ({
  append: async (draft, expectedRev) => {
    const started = performance.now();
    try {
      return await log.append(draft, expectedRev);
    } finally {
      observe((performance.now() - started) / 1000);
    }
  },
  appendBatch: async (entries) => {
    const started = performance.now();
    try {
      return await log.appendBatch(entries);
    } finally {
      observe((performance.now() - started) / 1000);
    }
  },
  read: (after, limit) => log.read(after, limit),
  history: (key, until) => log.history(key, until),
  get: (seq) => log.get(seq),
  lastSeq: () => log.lastSeq(),
  waitForNew: (after, signal) => log.waitForNew(after, signal),
  prune: (key, beforeSeq) => log.prune(key, beforeSeq),
  close: () => log.close(),
});
