import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventWriter } from '../../src/domain/EventWriter.js';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import type { EventLog } from '../../src/events/EventLog.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import type { Log } from '../../src/kernel/Log.js';
import { resourceCreated } from '../support/journal.js';

const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The write step over a real journal: conflicts become the caller's rejection, other failures stay failures. */
describe('EventWriter', () => {
  let dir: string;
  let journal: JournalEventLog;
  const caughtUp: number[] = [];
  let writer: EventWriter;
  const conflict = (actual: number) => new Rejection('ResourceAlreadyExists', `log has rev ${actual}`);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'event-writer-'));
    journal = await JournalEventLog.open(join(dir, 'events.log'), quiet);
    caughtUp.length = 0;
    writer = new EventWriter(journal, { catchUp: async (seq) => void caughtUp.push(seq) });
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends, then waits for the projection to catch up to the event before answering', async () => {
    const logged = await writer.write(resourceCreated('http://e/a', { '@value': 1 }), 0, conflict);
    expect(logged.seq).to.equal(1);
    expect(caughtUp).to.deep.equal([1]);
  });

  it("turns a revision conflict into the caller's rejection, with the log's revision", async () => {
    await writer.write(resourceCreated('http://e/a', { '@value': 1 }), 0, conflict);
    const refused = await writer.write(resourceCreated('http://e/a', { '@value': 2 }), 0, conflict).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Rejection);
    expect((refused as Rejection).message).to.contain('log has rev 1');
    expect(caughtUp).to.deep.equal([1]);
  });

  it('lets another failure of the log through as it is, never as a conflict', async () => {
    const failure = new Error('disk full');
    const failing = { append: () => Promise.reject(failure) } as unknown as EventLog;
    const refused = await new EventWriter(failing, { catchUp: async () => undefined })
      .write(resourceCreated('http://e/a', { '@value': 1 }), 0, conflict)
      .catch((e: unknown) => e);
    expect(refused).to.equal(failure);
  });

  it('prunes an item from the log before the given event', async () => {
    await writer.write(resourceCreated('http://e/a', { '@value': 1 }), 0, conflict);
    await writer.write(resourceCreated('http://e/b', { '@value': 1 }), 0, conflict);
    await writer.prune('resources/o/p/http://e/a', 2);
    expect(await journal.get(1)).to.equal(undefined);
    expect(await journal.get(2)).to.not.equal(undefined);
  });
});
