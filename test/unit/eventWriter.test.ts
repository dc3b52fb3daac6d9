import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventWriter } from '../../src/domain/EventWriter.js';
import type { Indexing, WriteProgress } from '../../src/domain/EventWriter.js';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import { RevisionConflict } from '../../src/events/EventLog.js';
import type { EventLog } from '../../src/events/EventLog.js';
import type { Log } from '../../src/kernel/Log.js';
import { resourceCreated } from '../support/journal.js';

const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The write step over a real journal: what it waits for by `indexing`, conflicts as the log reports them, other failures as they are. */
describe('EventWriter', () => {
  let dir: string;
  let journal: JournalEventLog;
  let waited: string[];
  let indexing: Indexing;
  let writer: EventWriter;
  const progress = (): WriteProgress => ({
    states: async (seq) => void waited.push(`states ${seq}`),
    projections: async (seq) => void waited.push(`projections ${seq}`),
    latest: async () => void waited.push('latest'),
    indexing: () => indexing,
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'event-writer-'));
    journal = await JournalEventLog.open(join(dir, 'events.log'), quiet);
    waited = [];
    indexing = 'sync';
    writer = new EventWriter(journal, progress());
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends, then waits for the states and, with indexing=sync, the projections before answering', async () => {
    const logged = await writer.append(resourceCreated('http://e/a', { '@value': 1 }), 0);
    expect(logged.seq).to.equal(1);
    expect(waited).to.deep.equal(['states 1', 'projections 1']);
  });

  it('with indexing=async waits for the states only', async () => {
    indexing = 'async';
    await writer.append(resourceCreated('http://e/a', { '@value': 1 }), 0);
    expect(waited).to.deep.equal(['states 1']);
  });

  it("reports a revision conflict with the log's revision, and waits for nothing", async () => {
    await writer.append(resourceCreated('http://e/a', { '@value': 1 }), 0);
    waited = [];
    const refused = await writer.append(resourceCreated('http://e/a', { '@value': 2 }), 0).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(RevisionConflict);
    expect((refused as RevisionConflict).actual).to.equal(1);
    expect(waited).to.deep.equal([]);
  });

  it('lets another failure of the log through as it is, never as a conflict', async () => {
    const failure = new Error('disk full');
    const failing = { append: () => Promise.reject(failure) } as unknown as EventLog;
    const refused = await new EventWriter(failing, progress()).append(resourceCreated('http://e/a', { '@value': 1 }), 0).catch((e: unknown) => e);
    expect(refused).to.equal(failure);
  });

  it('catches the states up to the log head on demand', async () => {
    await writer.latest();
    expect(waited).to.deep.equal(['latest']);
  });

  it('prunes an item from the log before the given event', async () => {
    await writer.append(resourceCreated('http://e/a', { '@value': 1 }), 0);
    await writer.append(resourceCreated('http://e/b', { '@value': 1 }), 0);
    await writer.prune('resources/o/p/http://e/a', 2);
    expect(await journal.get(1)).to.equal(undefined);
    expect(await journal.get(2)).to.not.equal(undefined);
  });
});
