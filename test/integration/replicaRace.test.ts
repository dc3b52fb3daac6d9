import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killStarted } from '../support/process.js';
import { Redis } from 'ioredis';
import { decodeState, parseRecord } from '../../src/events/itemRecord.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startReplicas } from '../support/replicas.js';
import { replicaRace } from '../support/replicaRace.js';

/**
 * Rounds of the race in the suite; `node dist/bench/replicaRace.js` runs 1,000 (the figure),
 * too long for a CI run on two shared cores.
 */
const ROUNDS = Number(process.env['RACE_ROUNDS'] ?? 100);

describe('replicas answer as one (two processes on one Redis)', function () {
  this.timeout(300_000);
  const prefix = uniquePrefix('race');
  const dirs = [mkdtempSync(join(tmpdir(), 'replica-a-')), mkdtempSync(join(tmpdir(), 'replica-b-'))];
  after(async () => {
    killStarted();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await dropPrefix(prefix);
  });

  it(`runs ${ROUNDS} rounds of create on A, fetch on B, update on A, update on B, tag on A, fetch by tag on B with no stale answer and no refused write`, async () => {
    const [a, b] = await startReplicas(prefix, dirs);
    const put = (url: string) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await put(`${a!.url}/v1/orgs/race`)).status).to.equal(201);
    expect((await put(`${b!.url}/v1/projects/race/p`)).status).to.equal(201);
    const outcome = await replicaRace(a!.url, b!.url, 'race/p', ROUNDS);
    expect(outcome.stale, 'stale answers').to.deep.equal([]);
    expect(outcome.refused, 'refused correct writes').to.deep.equal([]);
  });

  it('loses no acknowledged write when a replica is killed (-9) during writes on both; the other keeps answering; the restarted one catches up', async () => {
    const kill = uniquePrefix('kill');
    const killDirs = [mkdtempSync(join(tmpdir(), 'replica-k1-')), mkdtempSync(join(tmpdir(), 'replica-k2-'))];
    try {
      const [a, b] = await startReplicas(kill, killDirs, { SNAPSHOT_EVENTS: '20', SNAPSHOT_MILLIS: '0' });
      const put = (base: string, path: string, body: unknown) =>
        fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await put(a!.url, '/v1/orgs/k', {})).status).to.equal(201);
      expect((await put(b!.url, '/v1/projects/k/p', {})).status).to.equal(201);
      const acknowledged: string[] = [];
      let killed = false;
      const writer = async (base: string, name: string, count: number) => {
        for (let i = 0; i < count; i++) {
          const id = `${name}-${i}`;
          const reply = await put(base, `/v1/resources/k/p/_/${id}`, { 'http://x/n': i }).catch(() => undefined);
          if (reply?.status === 201) acknowledged.push(id);
          // Killed in the middle of the load, once each replica has acknowledged some writes.
          if (!killed && acknowledged.length >= 40) {
            killed = true;
            a!.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all([writer(a!.url, 'a1', 60), writer(a!.url, 'a2', 60), writer(b!.url, 'b1', 60), writer(b!.url, 'b2', 60)]);
      expect(killed).to.equal(true);
      expect(await a!.exited).to.equal(null);
      // B answered throughout: every write sent to it after the kill was acknowledged.
      expect(acknowledged.filter((id) => id.startsWith('b')).length).to.equal(120);
      const [restarted] = await startReplicas(kill, [killDirs[0]!]);
      for (const base of [b!.url, restarted!.url])
        for (const id of acknowledged) expect((await fetch(`${base}/v1/resources/k/p/_/${id}`)).status, `${id} on ${base}`).to.equal(200);
      const listed = (await (await fetch(`${restarted!.url}/v1/resources/k/p?size=1`)).json()) as { _total: number };
      expect(listed._total).to.be.at.least(acknowledged.length);
      // The state and its event are one step of the log: no item's state is missing, ahead of or behind its events.
      const redis = new Redis(REDIS_URL);
      try {
        const records = await redis.hgetallBuffer(`{${kill}}:items`);
        const items = Object.keys(records).filter((key) => key.startsWith('resources/'));
        expect(items.length).to.be.at.least(acknowledged.length);
        for (const key of items) {
          const { rev, seqs, state } = parseRecord(records[key]!);
          expect(state, key).to.be.instanceOf(Buffer);
          const last = seqs[seqs.length - 1]!;
          const [[, [, payload]]] = (await redis.xrangeBuffer(`{${kill}}:events`, `${last}-0`, `${last}-0`)) as [Buffer, Buffer[]][];
          const decoded = decodeState(state!, payload!, last) as { rev: number; seqs: number[] };
          expect(decoded.rev, key).to.equal(rev);
          expect(decoded.seqs, key).to.deep.equal(seqs);
        }
      } finally {
        redis.disconnect();
      }
    } finally {
      killStarted();
      for (const dir of killDirs) rmSync(dir, { recursive: true, force: true });
      await dropPrefix(kill);
    }
  });

  it('answers alike at once from two replicas started on empty data directories against a populated log: fetch, ?rev, ?tag, /source', async () => {
    const populated = uniquePrefix('populated');
    const firstDir = [mkdtempSync(join(tmpdir(), 'replica-first-'))];
    const freshDirs = [mkdtempSync(join(tmpdir(), 'replica-c-')), mkdtempSync(join(tmpdir(), 'replica-d-'))];
    try {
      // One public address, as behind a balancer: answers name it, not the replica.
      const shared = { BASE_URL: 'http://registry.example' };
      const [first] = await startReplicas(populated, firstDir, shared);
      const send = (method: string, path: string, body?: unknown) =>
        fetch(`${first!.url}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      expect((await send('PUT', '/v1/orgs/f', {})).status).to.equal(201);
      expect((await send('PUT', '/v1/projects/f/p', {})).status).to.equal(201);
      const ids = Array.from({ length: 30 }, (_, n) => `item-${n}`);
      for (const [n, id] of ids.entries()) {
        expect((await send('PUT', `/v1/resources/f/p/_/${id}`, { 'http://x/n': n })).status).to.equal(201);
        if (n % 2 === 0) expect((await send('PUT', `/v1/resources/f/p/_/${id}?rev=1`, { 'http://x/n': n, 'http://x/even': true })).status).to.equal(200);
        if (n % 3 === 0) expect((await send('POST', `/v1/resources/f/p/_/${id}/tags?rev=${n % 2 === 0 ? 2 : 1}`, { tag: 't', rev: 1 })).status).to.equal(201);
      }
      const paths = ids.flatMap((id, n) => [
        `/v1/resources/f/p/_/${id}`,
        `/v1/resources/f/p/_/${id}?rev=1`,
        `/v1/resources/f/p/_/${id}/source`,
        ...(n % 3 === 0 ? [`/v1/resources/f/p/_/${id}?tag=t`] : []),
      ]);
      const answers = async (base: string) => {
        // One request at a time: a client's connections are bounded.
        const seen: string[] = [];
        for (const path of paths) {
          const reply = await fetch(`${base}${path}`);
          seen.push(`${path} ${reply.status} ${await reply.text()}`);
        }
        return seen;
      };
      const expected = await answers(first!.url);
      first!.child.kill('SIGTERM');
      await first!.exited;
      const [c, d] = await startReplicas(populated, freshDirs, shared);
      const [onC, onD] = await Promise.all([answers(c!.url), answers(d!.url)]);
      expect(onC).to.deep.equal(expected);
      expect(onD).to.deep.equal(expected);
      expect(expected.filter((a) => / 200 /.test(a))).to.have.length(paths.length);
    } finally {
      killStarted();
      for (const dir of [...firstDir, ...freshDirs]) rmSync(dir, { recursive: true, force: true });
      await dropPrefix(populated);
    }
  });
});
