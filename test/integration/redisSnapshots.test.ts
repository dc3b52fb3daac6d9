import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { Log } from '../../src/kernel/Log.js';
import { RedisSnapshots } from '../../src/projection/RedisSnapshots.js';
import type { Snapshot } from '../../src/projection/snapshotText.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

const picture = (seq: number, orgs: number): Snapshot => ({
  version: 1,
  seq,
  revisionBytes: 7,
  states: { orgs: Array.from({ length: orgs }, (_, i) => ({ label: `o${i}`, rev: 1 })), projects: [] },
});

/** The shared snapshot's record in Redis: the furthest one stays, a bounded size, whatever does not read back whole is ignored. */
describe('RedisSnapshots (the replicas’ shared snapshot)', () => {
  let redis: Redis;
  const prefix = uniquePrefix('redis-snapshots');
  const key = `{${prefix}}:snapshot`;
  const warnings: string[] = [];
  const log: Log = { info: () => undefined, warn: (line) => void warnings.push(line), error: () => undefined };
  before(() => {
    redis = new Redis(REDIS_URL);
  });
  after(async () => {
    await dropPrefix(prefix);
    redis.disconnect();
  });
  beforeEach(async () => {
    warnings.length = 0;
    await redis.del(key);
  });

  it('reads back what it wrote, states and terms; a later writer with an earlier picture leaves the further one', async () => {
    const snapshots = new RedisSnapshots(redis, key, log);
    expect(await snapshots.load()).to.equal(undefined);
    expect(await snapshots.save({ snapshot: picture(40, 2_500), terms: '{"position":41,"terms":{}}' })).to.equal(true);
    expect(await snapshots.save({ snapshot: picture(30, 1), terms: '{"position":30,"terms":{}}' })).to.equal(false);
    const loaded = await snapshots.load();
    expect(loaded?.snapshot).to.deep.equal(picture(40, 2_500));
    expect(loaded?.terms).to.equal('{"position":41,"terms":{}}');
    expect(await snapshots.save({ snapshot: picture(50, 3), terms: '{"position":50,"terms":{}}' })).to.equal(true);
    expect((await snapshots.load())?.snapshot.seq).to.equal(50);
    expect(warnings).to.deep.equal([]);
  });

  it('writes none past its bound (warned once), and leaves the one it holds', async () => {
    const snapshots = new RedisSnapshots(redis, key, log, 10_000);
    expect(await snapshots.save({ snapshot: picture(10, 3), terms: '{}' })).to.equal(true);
    expect(await snapshots.save({ snapshot: picture(20, 1_000), terms: '{}' })).to.equal(false);
    expect(await snapshots.save({ snapshot: picture(30, 1_000), terms: '{}' })).to.equal(false);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/not written: the held states exceed 10000 bytes/);
    expect((await snapshots.load())?.snapshot.seq).to.equal(10);
  });

  it('ignores, and logs, a record whose text, terms or position do not match its digest or whose format is another', async () => {
    const snapshots = new RedisSnapshots(redis, key, log);
    const damaged: [string, string][] = [
      ['terms', '{"position":1,"terms":{"x":{}}}'],
      ['body', '{"version":1,"seq":5'],
      ['seq', '4'],
      ['version', '2'],
    ];
    for (const [field, value] of damaged) {
      await redis.del(key);
      await snapshots.save({ snapshot: picture(5, 2), terms: '{"position":5,"terms":{}}' });
      await redis.hset(key, field, value);
      expect(await snapshots.load(), field).to.equal(undefined);
    }
    expect(warnings.map((w) => w.replace(/^shared snapshot \S+ ignored \((.*)\): replaying the whole log$/, '$1'))).to.deep.equal([
      'its digest does not match its text',
      'its digest does not match its text',
      'its text is at 5, its record at 4',
      'format 2, this build reads 1',
    ]);
  });
});
