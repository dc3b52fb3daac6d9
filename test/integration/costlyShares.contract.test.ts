import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { CostlyShares } from '../../src/http/CostlyShares.js';
import { InProcessShares } from '../../src/http/CostlyShares.js';
import { RedisCostlyShares } from '../../src/http/RedisCostlyShares.js';
import type { Log } from '../../src/kernel/Log.js';
import { consoleLog } from '../../src/kernel/Log.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

const PER_CALLER = 3;
type Release = () => Promise<void>;
const takeAll = async (shares: CostlyShares, key: string, count: number): Promise<Release[]> => {
  const taken: Release[] = [];
  for (let i = 0; i < count; i++) {
    const release = await shares.take(key);
    expect(release, `share ${i + 1} of ${key}`).to.be.a('function');
    taken.push(release!);
  }
  return taken;
};

/** Every count of costly requests: the share per caller, given back once, callers apart. */
const contract = (name: string, make: () => Promise<{ shares: CostlyShares; stop(): Promise<void> }>) =>
  describe(`costly shares contract: ${name}`, () => {
    let shares: CostlyShares;
    let stop: () => Promise<void>;
    before(async () => ({ shares, stop } = await make()));
    after(() => stop());

    it('counts up to the share, refuses one more without counting it, and takes one again once one ends', async () => {
      const taken = await takeAll(shares, 'subject a', PER_CALLER);
      expect(await shares.take('subject a')).to.equal(undefined);
      expect(await shares.take('subject a')).to.equal(undefined);
      await taken[0]!();
      const again = await shares.take('subject a');
      expect(again).to.be.a('function');
      expect(await shares.take('subject a')).to.equal(undefined);
      for (const release of [...taken.slice(1), again!]) await release();
      for (const release of await takeAll(shares, 'subject a', PER_CALLER)) await release();
    });

    it('gives a share back once however often its end is called', async () => {
      const [first, ...rest] = await takeAll(shares, 'subject b', PER_CALLER);
      await first!();
      await first!();
      const one = await shares.take('subject b');
      expect(one).to.be.a('function');
      expect(await shares.take('subject b')).to.equal(undefined);
      for (const release of [...rest, one!]) await release();
    });

    it('keeps callers apart', async () => {
      const a = await takeAll(shares, 'address 10.0.0.1', PER_CALLER);
      expect(await shares.take('address 10.0.0.1')).to.equal(undefined);
      const b = await takeAll(shares, 'address 10.0.0.2', PER_CALLER);
      for (const release of [...a, ...b]) await release();
    });
  });

contract('in process', () => Promise.resolve({ shares: new InProcessShares(PER_CALLER), stop: () => Promise.resolve() }));
const prefix = uniquePrefix('costly');
contract('Redis', () => {
  const redis = new Redis(REDIS_URL);
  return Promise.resolve({
    shares: new RedisCostlyShares(redis, prefix, PER_CALLER, consoleLog),
    stop: async () => (redis.disconnect(), await dropPrefix(prefix)),
  });
});

describe('costly shares in Redis: one count for every replica', () => {
  const prefix = uniquePrefix('costly-replicas');
  const connections: Redis[] = [];
  /** A replica's count: its own connection, as each process has. */
  const replica = (ttlMillis = 30_000, log: Log = consoleLog) => {
    const redis = new Redis(REDIS_URL);
    connections.push(redis);
    return Object.assign(new RedisCostlyShares(redis, prefix, PER_CALLER, log, { ttlMillis }), { crash: () => redis.disconnect() });
  };
  after(async () => {
    for (const c of connections) c.disconnect();
    await dropPrefix(prefix);
  });

  it('refuses on one replica what the caller has in flight on the other', async () => {
    const [a, b] = [replica(), replica()];
    const onA = await takeAll(a, 'subject c', PER_CALLER - 1);
    const onB = await takeAll(b, 'subject c', 1);
    expect(await a.take('subject c')).to.equal(undefined);
    expect(await b.take('subject c')).to.equal(undefined);
    await onA[0]!();
    const moved = await b.take('subject c');
    expect(moved).to.be.a('function');
    for (const release of [...onA.slice(1), ...onB, moved!]) await release();
  });

  it("stops counting a crashed replica's requests once their leases lapse, not those a live replica is still running, which it renews", async () => {
    const quiet: Log = { ...consoleLog, warn: () => undefined };
    const crashed = replica(600, quiet);
    const live = replica(600);
    await takeAll(crashed, 'subject d', PER_CALLER - 1);
    const running = await takeAll(live, 'subject d', 1);
    expect(await live.take('subject d')).to.equal(undefined);
    // The crashed replica's process is gone: it neither ends its requests nor renews their leases.
    crashed.crash();
    // Waits for the lapse by polling (no timed assertion), then as long again: the live lease must still count.
    let freed: Release | undefined;
    for (let i = 0; i < 200 && !(freed = await live.take('subject d')); i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(freed, 'the lapsed leases stopped counting').to.be.a('function');
    await new Promise((ok) => setTimeout(ok, 1_500));
    const rest = await takeAll(live, 'subject d', PER_CALLER - 2);
    expect(await live.take('subject d'), 'the running request still counts').to.equal(undefined);
    for (const release of [...running, freed!, ...rest]) await release();
  });

  it('counts on this replica alone while Redis is away, rather than refusing every costly request', async () => {
    const warnings: string[] = [];
    const away = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    connections.push(away);
    away.on('error', () => undefined);
    const shares = new RedisCostlyShares(away, prefix, PER_CALLER, { ...consoleLog, warn: (m: string) => void warnings.push(m) });
    const taken = await takeAll(shares, 'subject e', PER_CALLER);
    expect(await shares.take('subject e')).to.equal(undefined);
    for (const release of taken) await release();
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.include('counted per replica');
  });
});
