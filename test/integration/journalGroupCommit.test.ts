import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import type { DurableSync } from '../../src/events/JournalEventLog.js';
import type { LogEvent } from '../../src/events/EventLog.js';
import type { Log } from '../../src/kernel/Log.js';
import { resourceCreated } from '../support/journal.js';

const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/**
 * Group commit: appends made while a sync is under way share the next one, so writes at
 * concurrency c wait for one or two syncs each, not for c of them in turn.
 */
describe('journal group commit (concurrent appends share one sync)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'journal-group-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('syncs appends of one turn together, those made during that sync together next, and acknowledges each only after a sync covering it', async () => {
    const path = join(dir, 'events.log');
    const held: (() => void)[] = [];
    /** The file size each sync covered, as it started; `durable` once it completed. */
    const covered: number[] = [];
    let durable = 0;
    const sync: DurableSync = async (file: FileHandle) => {
      const size = (await file.stat()).size;
      covered.push(size);
      await new Promise<void>((release) => held.push(release));
      await file.datasync();
      durable = Math.max(durable, size);
    };
    const journal = await JournalEventLog.open(path, quiet, sync);
    const durableAt = new Map<number, number>();
    const append = (id: string) =>
      journal.append(resourceCreated(`http://ex.org/${id}`, { '@value': id }), 0).then((event: LogEvent) => {
        durableAt.set(event.seq, durable);
        return event;
      });

    const first = Array.from({ length: 8 }, (_, i) => append(`a${i}`));
    while (held.length === 0) await turns(1);
    // Eight more while the first sync is held: none of them may start a sync of its own.
    const second = Array.from({ length: 8 }, (_, i) => append(`b${i}`));
    await turns(20);
    expect(covered, 'syncs started while the first is under way').to.have.length(1);
    held.shift()!();
    await Promise.all(first);
    while (held.length === 0) await turns(1);
    held.shift()!();
    await Promise.all(second);
    expect(covered, 'two syncs for sixteen appends').to.have.length(2);

    // Each record's end lies within what the syncs completed before its acknowledgement.
    const lines = readFileSync(path, 'utf8').split('\n').slice(0, -1);
    let end = 0;
    lines.forEach((line, i) => {
      end += Buffer.byteLength(line) + 1;
      expect(durableAt.get(i + 1), `event ${i + 1} acknowledged before it was durable`).to.be.at.least(end);
    });
    expect(lines).to.have.length(16);
    await journal.close();
  });
});
