import { expect } from 'chai';
import { Redis } from 'ioredis';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileProjectionCheckpoints } from '../../src/projection/FileProjectionCheckpoints.js';
import type { ProjectionCheckpoints } from '../../src/projection/ProjectionCheckpoints.js';
import { RedisProjectionCheckpoints } from '../../src/projection/RedisProjectionCheckpoints.js';

interface Subject {
  name: string;
  /** A fresh, empty place to record in. */
  create(): Promise<void>;
  /** An instance over that place (a new one stands for a restarted process). */
  open(): ProjectionCheckpoints;
  dispose(): Promise<void>;
}

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

let dir = '';
let redis: Redis | undefined;
let key = '';
const subjects: Subject[] = [
  {
    name: 'FileProjectionCheckpoints',
    create: async () => void (dir = mkdtempSync(join(tmpdir(), 'checkpoints-'))),
    open: () => new FileProjectionCheckpoints(join(dir, 'projection', 'checkpoints.json')),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  },
  {
    name: 'RedisProjectionCheckpoints',
    create: async () => {
      redis = new Redis(REDIS_URL);
      key = `test-checkpoints-${process.pid}-${Date.now()}-${Math.random()}`;
    },
    open: () => new RedisProjectionCheckpoints(redis!, key),
    dispose: async () => {
      await redis!.del(key);
      redis!.disconnect();
    },
  },
];

for (const subject of subjects) {
  describe(`projection checkpoints contract: ${subject.name}`, () => {
    beforeEach(() => subject.create());
    afterEach(() => subject.dispose());

    it('knows no position of a projection that never recorded one', async () => {
      expect(await subject.open().get('text')).to.equal(undefined);
    });

    it('keeps the last position recorded per projection, across a restart', async () => {
      const checkpoints = subject.open();
      await checkpoints.set('text', 3);
      await checkpoints.set('store', 10);
      await Promise.all([checkpoints.set('text', 7), checkpoints.set('text', 8)]);
      expect(await checkpoints.get('text')).to.equal(8);
      const reopened = subject.open();
      expect(await reopened.get('text')).to.equal(8);
      expect(await reopened.get('store')).to.equal(10);
      expect(await reopened.get('catalogue')).to.equal(undefined);
    });
  });
}

describe('file checkpoints on disk', () => {
  let where = '';
  beforeEach(() => void (where = mkdtempSync(join(tmpdir(), 'checkpoints-'))));
  afterEach(() => rmSync(where, { recursive: true, force: true }));

  it('replaces the file atomically, leaving no temporary file', async () => {
    const checkpoints = new FileProjectionCheckpoints(join(where, 'checkpoints.json'));
    for (let i = 1; i <= 20; i++) void checkpoints.set('text', i);
    await checkpoints.set('text', 21);
    expect(readdirSync(where)).to.deep.equal(['checkpoints.json']);
    expect(await new FileProjectionCheckpoints(join(where, 'checkpoints.json')).get('text')).to.equal(21);
  });

  it('treats an unreadable file as no positions (the projections are rebuilt from the states)', async () => {
    writeFileSync(join(where, 'checkpoints.json'), '{"text": 1');
    const checkpoints = new FileProjectionCheckpoints(join(where, 'checkpoints.json'));
    expect(await checkpoints.get('text')).to.equal(undefined);
    await checkpoints.set('text', 2);
    expect(existsSync(join(where, 'checkpoints.json'))).to.equal(true);
    expect(await new FileProjectionCheckpoints(join(where, 'checkpoints.json')).get('text')).to.equal(2);
  });
});

describe('Redis checkpoints heard by every process', () => {
  let watcher: Redis;
  let recorder: Redis;
  const where = `test-checkpoints-watch-${process.pid}-${Date.now()}`;
  beforeEach(() => {
    watcher = new Redis(REDIS_URL);
    recorder = new Redis(REDIS_URL);
  });
  afterEach(async () => {
    await recorder.del(where);
    watcher.disconnect();
    recorder.disconnect();
  });

  it('calls a watcher with each position another process records under its name, in order, and stops when asked', async () => {
    const heard: number[] = [];
    let third: () => void = () => undefined;
    const reachedThird = new Promise<void>((resolve) => (third = resolve));
    const stop = await new RedisProjectionCheckpoints(watcher, where).watch('store:1', (position) => {
      heard.push(position);
      if (heard.length === 3) third();
    });
    const other = new RedisProjectionCheckpoints(recorder, where);
    await other.set('store:1', 4);
    await other.set('store:2', 99);
    await other.set('store:1', 5);
    await other.set('store:1', 6);
    await reachedThird;
    expect(heard).to.deep.equal([4, 5, 6]);
    await stop();
    await other.set('store:1', 7);
    // Read back through the watcher's own connection: the record above is done, its message would have arrived first.
    expect(await new RedisProjectionCheckpoints(watcher, where).get('store:1')).to.equal(7);
    expect(heard).to.deep.equal([4, 5, 6]);
  });
});
