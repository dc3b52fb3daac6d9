import { expect } from 'chai';
import type { EventDraft, LogEvent } from '../../src/events/EventLog.js';
import { RevisionConflict } from '../../src/events/EventLog.js';
import type { EventWriter } from '../../src/domain/EventWriter.js';
import type { CommandDefinition, DomainEvent } from '../../src/domain/KindDefinition.js';
import { Lifecycle } from '../../src/domain/Lifecycle.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import { fillTemplate } from '../../src/kernel/stateTemplate.js';

interface State {
  rev: number;
}
type Event = DomainEvent & { rev: number };

/** A definition that sets the next revision and names the log's revision in its conflict. */
const definition = {
  kind: 'resources',
  evaluate: (state: State | undefined) => ({ type: 'Updated', rev: (state?.rev ?? 0) + 1 }) as unknown as Event,
  conflict: (_state: State | undefined, _cmd: unknown, actual: number) => new Rejection('IncorrectRev', `log at ${actual}`, { actual }),
} as unknown as CommandDefinition<State, unknown, Event>;

/**
 * A log at revision `logRev` that the replica's states learn only on `latest()` (up to `learned`,
 * default the log's), with `racers` more writers each appending first once.
 */
const setup = (logRev: number, racers: number, learned?: number) => {
  const appended: { draft: EventDraft; expected: number }[] = [];
  let known = 0;
  let latest = 0;
  let log = logRev;
  let races = racers;
  const writer = {
    append: async (draft: EventDraft, expected: number) => {
      appended.push({ draft, expected });
      if (expected !== log) throw new RevisionConflict('k', expected, log);
      if (races-- > 0) {
        log++;
        throw new RevisionConflict('k', expected, log);
      }
      log = draft.rev;
      return { ...draft, offset: appended.length } as unknown as LogEvent;
    },
    latest: async () => {
      latest++;
      known = learned ?? log;
    },
  } as unknown as EventWriter;
  const lifecycle = new Lifecycle(writer, async () => (known ? { rev: known } : undefined));
  return { lifecycle, appended, latests: () => latest };
};

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (v) => v,
    (e: unknown) => e,
  );

describe('Lifecycle: a write the log refuses', () => {
  it('appends at once with the state the replica holds', async () => {
    const { lifecycle, appended, latests } = setup(0, 0);
    const event = (await lifecycle.run(definition, undefined, {}, { key: 'k' })) as unknown as EventDraft;
    expect(event.rev).to.equal(1);
    expect(appended.map((a) => a.expected)).to.deep.equal([0]);
    expect(latests()).to.equal(0);
  });

  it('catches up with the log and evaluates again when another replica wrote first', async () => {
    const { lifecycle, appended, latests } = setup(2, 0);
    const event = (await lifecycle.run(definition, { rev: 1 }, {}, { key: 'k' })) as unknown as EventDraft;
    expect(event.rev).to.equal(3);
    expect(appended.map((a) => a.expected)).to.deep.equal([1, 2]);
    expect(latests()).to.equal(1);
  });

  it('tries three times in all, then reports the log revision as the conflict', async () => {
    const won = setup(0, 2);
    expect(((await won.lifecycle.run(definition, undefined, {}, { key: 'k' })) as unknown as EventDraft).rev).to.equal(3);
    expect(won.appended.map((a) => a.expected)).to.deep.equal([0, 1, 2]);
    const lost = setup(0, 3);
    const refused = await outcome(lost.lifecycle.run(definition, undefined, {}, { key: 'k' }));
    expect(refused).to.be.instanceOf(Rejection);
    expect((refused as Rejection).fields).to.deep.equal({ actual: 3 });
    expect(lost.appended).to.have.length(3);
    expect(lost.latests()).to.equal(2);
  });

  it("takes the log's word when the states do not learn the winner's write", async () => {
    const { lifecycle, appended } = setup(2, 0, 1);
    const refused = await outcome(lifecycle.run(definition, { rev: 1 }, {}, { key: 'k' }));
    expect((refused as Rejection).fields).to.deep.equal({ actual: 2 });
    expect(appended).to.have.length(1);
    const gone = setup(2, 0, 0);
    expect(((await outcome(gone.lifecycle.run(definition, { rev: 1 }, {}, { key: 'k' }))) as Rejection).fields).to.deep.equal({ actual: 2 });
  });

  it('lets another failure of the log through at once', async () => {
    const broken = new Error('log down');
    const lifecycle = new Lifecycle({ append: () => Promise.reject(broken), latest: async () => undefined } as unknown as EventWriter, async () => undefined);
    expect(await outcome(lifecycle.run(definition, undefined, {}, { key: 'k' }))).to.equal(broken);
  });
});

describe('Lifecycle: a batch of commands', () => {
  it('appends them in one write, answers a rejection alone, and runs a command that lost a race again on its own', async () => {
    const logRevs = new Map<string, number>([['b', 1]]);
    const batches: number[] = [];
    const singles: string[] = [];
    const writer = {
      appendBatch: async (entries: { draft: EventDraft; expectedRev: number }[]) => {
        batches.push(entries.length);
        return entries.map(({ draft, expectedRev }, i) => {
          const actual = logRevs.get(draft.key) ?? 0;
          if (actual !== expectedRev) return new RevisionConflict(draft.key, expectedRev, actual);
          logRevs.set(draft.key, draft.rev);
          return { ...draft, seq: i + 1 } as LogEvent;
        });
      },
      append: async (draft: EventDraft, expected: number) => {
        singles.push(draft.key);
        if ((logRevs.get(draft.key) ?? 0) !== expected) throw new RevisionConflict(draft.key, expected, logRevs.get(draft.key) ?? 0);
        logRevs.set(draft.key, draft.rev);
        return { ...draft, seq: 99 } as LogEvent;
      },
      latest: async () => undefined,
    } as unknown as EventWriter;
    const refusing = {
      ...definition,
      evaluate: (state: State | undefined, cmd: { refuse?: boolean }) =>
        cmd.refuse ? new Rejection('Refused', 'no') : ({ type: 'Updated', rev: (state?.rev ?? 0) + 1 } as unknown as Event),
    } as unknown as CommandDefinition<State, { refuse?: boolean }, Event>;
    const lifecycle = new Lifecycle(writer, async (draft) => ({ rev: logRevs.get(draft.key) ?? 0 }));
    const outcomes = await lifecycle.runBatch(refusing, [
      { state: undefined, cmd: {}, placement: { key: 'a' } },
      { state: undefined, cmd: { refuse: true }, placement: { key: 'r' } },
      // The replica had not seen `b` at 1: it lost the race, then is evaluated on the log's revision.
      { state: undefined, cmd: {}, placement: { key: 'b' } },
    ]);
    expect(batches).to.deep.equal([2]);
    expect((outcomes[0] as LogEvent).rev).to.equal(1);
    expect(outcomes[1]).to.be.instanceOf(Rejection);
    expect((outcomes[2] as LogEvent).rev).to.equal(2);
    expect(singles).to.deep.equal(['b']);
  });
});

describe('Lifecycle: the state handed to a log that keeps states', () => {
  it('hands each append the state its event leads to, the position left for the log to fill; none without a fold or for a deletion', async () => {
    const appended: EventDraft[] = [];
    const writer = {
      append: async (draft: EventDraft) => (appended.push(draft), { ...draft, seq: appended.length }) as LogEvent,
    } as unknown as EventWriter;
    const next = (draft: EventDraft, previous: unknown, seq: number) => ({ rev: draft.rev, seen: (previous as State | undefined)?.rev ?? 0, at: seq });
    await new Lifecycle(writer, async () => undefined, next).run(definition, { rev: 4 }, {}, { key: 'k' });
    expect(fillTemplate(appended[0]!.state!, 31)).to.equal('{"rev":5,"seen":4,"at":31}');
    await new Lifecycle(writer, async () => undefined).run(definition, { rev: 4 }, {}, { key: 'k' });
    expect(appended[1]).not.to.have.property('state');
    const deleting = { ...definition, revAfter: () => 0 } as unknown as CommandDefinition<State, unknown, Event>;
    await new Lifecycle(writer, async () => undefined, next).run(deleting, { rev: 4 }, {}, { key: 'k' });
    expect(appended[2]).not.to.have.property('state');
  });
});
