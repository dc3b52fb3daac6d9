import { expect } from 'chai';
import { copyFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import type { DurableSync } from '../../src/events/JournalEventLog.js';
import type { Log } from '../../src/kernel/Log.js';
import { resourceCreated } from '../support/journal.js';

const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A power cut keeps only what was synced: SIGKILL keeps the page cache, so the process-level test
 * (durability.test.ts) cannot see a missing fdatasync. Here the journal's sync is observed: the test
 * holds each sync open, notes how many bytes it made durable, and a "power cut" is a copy of the
 * file cut to those bytes. Every append acknowledged must be in that copy.
 */
describe('journal durability across a power cut (the sync before each acknowledgement)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'journal-power-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A sync the test releases by hand; `durable` is the file size each completed sync covered. */
  const heldSync = () => {
    const held: (() => void)[] = [];
    const state = { durable: 0, calls: 0 };
    const sync: DurableSync = async (file: FileHandle) => {
      state.calls++;
      const size = (await file.stat()).size;
      await new Promise<void>((release) => held.push(release));
      await file.datasync();
      state.durable = size;
    };
    const releaseAll = async () => {
      while (held.length === 0) await new Promise((r) => setImmediate(r));
      for (const release of held.splice(0)) release();
    };
    return { sync, state, releaseAll, pending: () => held.length };
  };

  it('acknowledges an append only after a sync covering its record has completed', async () => {
    const path = join(dir, 'events.log');
    const { sync, state, releaseAll, pending } = heldSync();
    const journal = await JournalEventLog.open(path, quiet, sync);
    let acknowledged = false;
    const appended = journal.append(resourceCreated('http://ex.org/a', { '@value': 'a' }), 0).then((e) => ((acknowledged = true), e));
    while (pending() === 0) await new Promise((r) => setImmediate(r));
    // The record is written and its sync is under way: the append must still be waiting for it.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(acknowledged, 'acknowledged before its sync completed').to.equal(false);
    await releaseAll();
    const event = await appended;
    expect(acknowledged).to.equal(true);
    expect(state.calls).to.equal(1);
    expect(event.seq).to.equal(1);
    await journal.close();
  });

  it('keeps every acknowledged append in what the syncs made durable (a copy cut to it reads them all back)', async () => {
    const path = join(dir, 'events.log');
    const { sync, state, pending, releaseAll } = heldSync();
    const journal = await JournalEventLog.open(path, quiet, sync);
    const acknowledged: number[] = [];
    const appends = Array.from({ length: 30 }, (_, i) =>
      journal.append(resourceCreated(`http://ex.org/r${i}`, { '@value': `r${i}` }), 0).then((e) => void acknowledged.push(e.seq)),
    );
    const all = Promise.all(appends);
    let cuts = 0;
    while (acknowledged.length < 30) {
      if (pending() > 0) await releaseAll();
      await new Promise((r) => setImmediate(r));
      // A power cut now: only the durable bytes remain; what was acknowledged before it must be there.
      const known = [...acknowledged];
      const cut = join(dir, `cut-${++cuts}.log`);
      copyFileSync(path, cut);
      truncateSync(cut, state.durable);
      const after = await JournalEventLog.open(cut, quiet);
      try {
        for (const seq of known) expect(await after.get(seq), `event ${seq} was acknowledged`).to.not.equal(undefined);
      } finally {
        await after.close();
      }
    }
    await all;
    expect(cuts, 'cuts between the syncs').to.be.at.least(2);
    expect(state.calls).to.be.at.least(1);
    await journal.close();
  });
});
