import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { EventDraft } from '../../src/events/EventLog.js';
import { REDIS_STREAM_NODE_BYTES } from '../../src/config/Config.js';
import { RedisEventLog } from '../../src/events/RedisEventLog.js';
import { nextResource } from '../../src/domain/resources/Resource.js';
import type { ResourceEvent } from '../../src/domain/resources/ResourceEvent.js';
import { stateTemplate } from '../../src/kernel/stateTemplate.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

/** A resource creation of about 1.5 KB of JSON, as the registry logs one (source and its expanded form). */
const created = (n: number): EventDraft => {
  const id = `https://example.org/things/${randomUUID()}`;
  const project = 'acme/catalogue';
  const source = {
    '@context': 'https://schema.org/',
    '@id': id,
    '@type': 'Dataset',
    name: `Dataset number ${n}`,
    description: `A measured dataset of the survey, series ${n % 97}, with the notes the curators wrote about it.`,
    keywords: ['survey', 'series', `batch-${n % 13}`],
    license: 'https://creativecommons.org/licenses/by/4.0/',
  };
  const expanded = [
    {
      '@id': id,
      '@type': ['https://schema.org/Dataset'],
      'https://schema.org/name': [{ '@value': source.name }],
      'https://schema.org/description': [{ '@value': source.description }],
      'https://schema.org/keywords': source.keywords.map((k) => ({ '@value': k })),
      'https://schema.org/license': [{ '@id': source.license }],
    },
  ];
  return {
    key: `resources:${project}:${id}`,
    kind: 'resources',
    org: 'acme',
    project,
    rev: 1,
    event: {
      type: 'ResourceCreated',
      instant: new Date(1_767_225_600_000 + n * 1_000).toISOString(),
      subject: { type: 'user', realm: 'registry', subject: 'alice' },
      id,
      project,
      rev: 1,
      schema: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
      schemaProject: project,
      types: ['https://schema.org/Dataset'],
      source,
      expanded,
      remoteContexts: [{ type: 'StaticContextRef', iri: 'https://schema.org/' }],
    } as EventDraft['event'],
  };
};

/** What every key of a log costs in Redis (MEMORY USAGE, every element counted). */
const logBytes = async (redis: Redis, prefix: string): Promise<number> => {
  let total = 0;
  let cursor = '0';
  do {
    const [next, keys] = (await redis.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1000)) as [string, string[]];
    cursor = next;
    for (const key of keys) {
      const used = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
      if (process.env['BYTES_DETAIL']) console.log(`      ${key}: ${used} B`);
      total += used;
    }
  } while (cursor !== '0');
  return total;
};

describe('Redis bytes per change', function () {
  this.timeout(120_000);
  const prefix = uniquePrefix('bytes');
  const statesPrefix = uniquePrefix('bytes-states');
  let redis: Redis;
  let log: RedisEventLog;
  before(async () => {
    redis = new Redis(REDIS_URL);
    // As the registry opens it: stream-node-max-bytes raised to the configured default where Redis allows.
    log = await RedisEventLog.open({ url: REDIS_URL, streamNodeBytes: REDIS_STREAM_NODE_BYTES }, prefix);
  });
  after(async () => {
    await log.close();
    await dropPrefix(prefix);
    await dropPrefix(statesPrefix);
    redis.disconnect();
  });

  it('is at most 1.3 times the event JSON, for 2,000 resource creations of ~1.5 KB (memory measured)', async () => {
    expect(Number(((await redis.config('GET', 'stream-node-max-bytes')) as string[])[1])).to.be.at.least(REDIS_STREAM_NODE_BYTES);
    const count = 2_000;
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    const usedBefore = await usedMemory();
    let json = 0;
    for (let n = 0; n < count; n++) {
      const draft = created(n);
      const { within: _, ...recorded } = draft;
      json += Buffer.byteLength(JSON.stringify(recorded));
      await log.append(draft, 0);
    }
    // INFO's delta is told, not asserted: other clients of a shared Redis move it too.
    const delta = (await usedMemory()) - usedBefore;
    const bytes = await logBytes(redis, prefix);
    const ratio = bytes / json;
    console.log(
      `      ${count} events: ${Math.round(json / count)} B of JSON each, ${Math.round(bytes / count)} B in Redis each (×${ratio.toFixed(3)}; used_memory +${Math.round(delta / count)} B each; stream-node-max-bytes ${((await redis.config('GET', 'stream-node-max-bytes')) as string[])[1]})`,
    );
    expect(ratio).to.be.at.most(1.3);
  });

  it('keeps the latest state of each item beside its events: one record per item (its revision, positions and state: the state deflated against its event, ~150 B for a created resource), at most 1.3 times the event JSON at one revision an item (2,000 creations)', async () => {
    const shared = await RedisEventLog.open({ url: REDIS_URL, streamNodeBytes: REDIS_STREAM_NODE_BYTES }, statesPrefix);
    try {
      const count = 2_000;
      let json = 0;
      let stateJson = 0;
      for (let n = 0; n < count; n++) {
        const draft = created(n);
        const { within: _, ...recorded } = draft;
        json += Buffer.byteLength(JSON.stringify(recorded));
        // The state the writer hands the log: the resource kind's own fold of the event.
        const state = stateTemplate((seq) => nextResource(undefined, draft.event as unknown as ResourceEvent, seq))!;
        stateJson += Buffer.byteLength(state.join('1'));
        await shared.append({ ...draft, state }, 0);
      }
      const bytes = await logBytes(redis, statesPrefix);
      const ratio = bytes / json;
      console.log(
        `      ${count} events with their states: ${Math.round(json / count)} B of event JSON and ${Math.round(stateJson / count)} B of state JSON each, ${Math.round(bytes / count)} B in Redis each (×${ratio.toFixed(3)} the event JSON)`,
      );
      expect(ratio).to.be.at.most(1.3);
    } finally {
      await shared.close();
    }
  });
});
