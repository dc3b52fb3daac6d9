import { expect } from 'chai';
import type { EventDraft, Kind, LogEvent } from '../../src/events/EventLog.js';
import { RedisEventLog } from '../../src/events/RedisEventLog.js';
import type { RedisItemStates } from '../../src/events/RedisItemStates.js';
import { stateTemplate } from '../../src/kernel/stateTemplate.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

/** A toy item: its state is its revision and the position it was written at. */
interface Toy {
  rev: number;
  seq: number;
}

const fold = (_kind: Kind, events: readonly LogEvent[]): Toy | undefined => {
  const last = events[events.length - 1];
  return last && last.rev > 0 ? { rev: last.rev, seq: last.seq } : undefined;
};
const instant = '2026-01-01T00:00:00.000Z';

/** Every Map, Set or cache an object holds directly, summed: what it keeps in memory, whatever the field is called. */
const entriesHeld = (object: object): number =>
  Object.values(object).reduce<number>((sum, value) => {
    if (value instanceof Map || value instanceof Set) return sum + value.size;
    const size = (value as { size?: unknown } | null)?.size;
    return sum + (typeof size === 'number' && value !== null && typeof value === 'object' ? size : 0);
  }, 0);

/**
 * Commit 9ea4bde (issue 34): a state older than its project's deletion must not be kept, since the
 * deleting replica prunes the items' records later with no event on their keys. The position of the
 * deletion is told by Redis with each state, so this process holds nothing per deleted project.
 */
describe("item states on Redis: a project's deletion, with nothing held per deletion", function () {
  this.timeout(120_000);
  let prefix: string;
  let log: RedisEventLog;
  let states: RedisItemStates;
  let applied = 0;
  /** This process's fold of the log, as the projector runs it: every event passed to `observe`. */
  const settle = async () => {
    for (;;) {
      const events = await log.read(applied, 1000);
      if (!events.length) return;
      for (const event of events) {
        states.observe(event);
        applied = event.seq;
      }
    }
  };
  const write = async (key: string, expected: number, project: string): Promise<LogEvent> => {
    const draft: EventDraft = { key, kind: 'resources', rev: expected + 1, project, event: { type: 'Written', instant } };
    const logged = await log.append({ ...draft, state: stateTemplate((seq) => ({ rev: expected + 1, seq })) }, expected);
    await settle();
    return logged;
  };
  const project = async (ref: string, type: 'ProjectCreated' | 'ProjectMarkedForDeletion', expected: number): Promise<LogEvent> => {
    const rev = type === 'ProjectCreated' ? expected + 1 : 0;
    const logged = await log.append({ key: `projects/${ref}`, kind: 'projects', rev, project: ref, event: { type, instant } }, expected);
    await settle();
    return logged;
  };

  beforeEach(async () => {
    prefix = uniquePrefix('states-deletion');
    log = await RedisEventLog.open(REDIS_URL, prefix);
    states = log.itemStates(fold, 10_000);
    applied = 0;
  });
  afterEach(async () => {
    await log.close();
    await dropPrefix(prefix);
  });

  it('answers a state older than the deletion read after it, keeps none of it, and keeps the item of the project created again', async () => {
    await project('o/p', 'ProjectCreated', 0);
    const old = await write('resources/o/p/a', 0, 'o/p');
    expect(await states.get('resources', 'resources/o/p/a')).to.deep.equal({ rev: 1, seq: old.seq });
    expect(states.held()).to.equal(1);
    await project('o/p', 'ProjectMarkedForDeletion', 1);
    expect(states.held(), 'dropped by the deletion').to.equal(0);
    // The store's writer reads every item at the deletion, before the deleting replica prunes them.
    expect(await states.get('resources', 'resources/o/p/a')).to.deep.equal({ rev: 1, seq: old.seq });
    expect(states.held(), 'not kept: it would outlive the prune').to.equal(0);
    await log.prune('resources/o/p/a', Number.MAX_SAFE_INTEGER);
    await project('o/p', 'ProjectCreated', 0);
    expect(await states.get('resources', 'resources/o/p/a')).to.equal(undefined);
    const again = await write('resources/o/p/a', 0, 'o/p');
    expect(await states.get('resources', 'resources/o/p/a')).to.deep.equal({ rev: 1, seq: again.seq });
    expect(states.held(), 'a state newer than the deletion is kept').to.equal(1);
    // Another project's items are kept as ever.
    await write('resources/o/q/b', 0, 'o/q');
    await states.get('resources', 'resources/o/q/b');
    expect(states.held()).to.equal(2);
  });

  it('keeps no state Redis answered before the deletion when the read ends after this process passed it', async () => {
    await project('o/p', 'ProjectCreated', 0);
    await write('resources/o/p/a', 0, 'o/p');
    await write('resources/o/p/b', 0, 'o/p');
    // Redis answers the read before the deletion is appended; this process passes the deletion before the answer arrives.
    const reading = states.getMany('resources', ['resources/o/p/a', 'resources/o/p/b', 'resources/o/q/c']);
    states.observe({
      key: 'projects/o/p',
      kind: 'projects',
      rev: 0,
      project: 'o/p',
      seq: Number.MAX_SAFE_INTEGER,
      event: { type: 'ProjectMarkedForDeletion', instant },
    });
    expect((await reading).map((state) => state === undefined)).to.deep.equal([false, false, true]);
    expect(states.held()).to.equal(0);
  });

  it('holds nothing per deleted project: thousands of deletions, each with its item read after it', async () => {
    const projects = 3_000;
    const chunk = 100;
    for (let from = 0; from < projects; from += chunk) {
      const refs = Array.from({ length: chunk }, (_, n) => `o/p${from + n}`);
      const items = refs.map((ref) => `resources/${ref}/a`);
      await Promise.all(
        refs.map((ref) => log.append({ key: `projects/${ref}`, kind: 'projects', rev: 1, project: ref, event: { type: 'ProjectCreated', instant } }, 0)),
      );
      await Promise.all(
        items.map((key, n) =>
          log.append(
            { key, kind: 'resources', rev: 1, project: refs[n]!, event: { type: 'Written', instant }, state: stateTemplate((seq) => ({ rev: 1, seq })) },
            0,
          ),
        ),
      );
      await settle();
      expect(await states.getMany('resources', items)).to.have.length(chunk);
      await Promise.all(
        refs.map((ref) =>
          log.append({ key: `projects/${ref}`, kind: 'projects', rev: 0, project: ref, event: { type: 'ProjectMarkedForDeletion', instant } }, 1),
        ),
      );
      await settle();
      expect(
        (await states.getMany('resources', items)).every((state) => state !== undefined),
        'answered until pruned',
      ).to.equal(true);
    }
    expect(applied).to.be.at.least(3 * projects);
    expect(states.held()).to.equal(0);
    expect(entriesHeld(states), 'every map, set and cache of the states, together').to.equal(0);
    // Still kept for a project alive.
    await project('o/alive', 'ProjectCreated', 0);
    await write('resources/o/alive/a', 0, 'o/alive');
    await states.get('resources', 'resources/o/alive/a');
    expect(entriesHeld(states)).to.equal(1);
  });
});
