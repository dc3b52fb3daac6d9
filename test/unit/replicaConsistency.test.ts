import { expect } from 'chai';
import type { Request, Response } from 'express';
import { EventWriter } from '../../src/domain/EventWriter.js';
import { Lifecycle } from '../../src/domain/Lifecycle.js';
import type { EventDraft, EventLog, LogEvent } from '../../src/events/EventLog.js';
import { RevisionConflict } from '../../src/events/EventLog.js';
import { errorMiddleware } from '../../src/http/errorMiddleware.js';
import type { Log } from '../../src/kernel/Log.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import { ReadBarrier } from '../../src/projection/ReadBarrier.js';

interface Counter {
  rev: number;
}
/** With `rev`, the command names the revision it expects, as updates do; without, it applies to any (as a refresh does). */
type Bump = { rev?: number };

const counter = {
  kind: 'orgs' as const,
  evaluate: (state: Counter | undefined, cmd: Bump) =>
    cmd.rev === undefined || (state?.rev ?? 0) === cmd.rev
      ? { type: 'Bumped', instant: '', rev: (state?.rev ?? 0) + 1 }
      : new Rejection('IncorrectRev', `expected ${state?.rev ?? 0}`),
  conflict: (_state: Counter | undefined, _cmd: Bump, actual: number) => new Rejection('IncorrectRev', `the log holds ${actual}`),
};

/** A log holding one item at `rev`, appended to only at that revision, and states that learn it when caught up. */
const world = (logRev: number) => {
  const seen = { rev: logRev - 1 };
  let rev = logRev;
  const log = {
    append: async (draft: EventDraft, expected: number): Promise<LogEvent> => {
      if (expected !== rev) throw new RevisionConflict(draft.key, expected, rev);
      rev = draft.rev;
      return { ...draft, seq: rev };
    },
  } as unknown as EventLog;
  const writer = new EventWriter(log, {
    states: async (seq) => void (seen.rev = seq),
    projections: async () => undefined,
    latest: async () => void (seen.rev = rev),
    indexing: () => 'sync',
  });
  return { seen, lifecycle: new Lifecycle(writer, async () => ({ rev: seen.rev })) };
};

describe('replicas answer as one', () => {
  it('evaluates again against the caught-up state when the log refuses a stale one, and appends what is still valid', async () => {
    // This replica saw rev 1; another replica appended rev 2 meanwhile; the command holds at any revision.
    const { seen, lifecycle } = world(2);
    const logged = await lifecycle.run(counter, { rev: seen.rev }, {}, { key: 'k' });
    expect(logged?.rev).to.equal(3);
  });

  it('refuses a rev the log has moved past with the revision the log holds, after catching up', async () => {
    const { seen, lifecycle } = world(2);
    const refused = await lifecycle.run(counter, { rev: seen.rev }, { rev: 1 }, { key: 'k' }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Rejection);
    expect((refused as Rejection).reason).to.equal('expected 2');
  });

  it('refuses with 503 ProjectionsBehind and Retry-After when a follower does not reach the head in time, never an older answer', async () => {
    const barrier = new ReadBarrier(async () => 10, { waitMillis: 20 });
    const stuck = { name: 'text', position: 4, reach: () => new Promise<void>(() => undefined) };
    const caughtUp = { name: 'states', position: 10, reach: async () => undefined };
    await barrier.reach(await barrier.note(), [caughtUp]);
    const refused = await barrier.reach(await barrier.note(), [caughtUp, stuck]).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Rejection);
    expect((refused as Rejection).type).to.equal('ProjectionsBehind');
    expect((refused as Rejection).reason).to.include('text at 4');

    const headers: Record<string, string> = {};
    const sent: { status?: number; body?: string } = {};
    const res = {
      headersSent: false,
      setHeader: (name: string, value: string) => ((headers[name] = value), res),
      status: (s: number) => ((sent.status = s), res),
      type: () => res,
      send: (b: string) => ((sent.body = b), res),
    };
    errorMiddleware({ error: () => undefined } as unknown as Log)(refused, {} as Request, res as unknown as Response, () => undefined);
    expect(sent.status).to.equal(503);
    expect(headers['Retry-After']).to.equal('1');
    expect(JSON.parse(sent.body!)).to.include({ '@type': 'ProjectionsBehind' }).and.not.have.property('retryAfter');
  });
});
