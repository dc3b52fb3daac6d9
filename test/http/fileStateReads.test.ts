import { expect } from 'chai';
import { tmpdir } from 'node:os';
import type { Kind } from '../../src/events/EventLog.js';
import type { CapabilityModule } from '../../src/modules/Capability.js';
import type { Platform } from '../../src/modules/Platform.js';
import { multipart, storagesConfig, upload } from '../support/files.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/** Counts the file states read through the item states port (the one every file read goes through), whoever reads them. */
const fileReads = () => {
  let reads = 0;
  const module: CapabilityModule<Platform, unknown> = {
    name: 'fileReadCounter',
    kinds: [],
    streams: [],
    projections: [],
    statuses: {},
    wire: (p) => {
      const states = p.itemStates;
      const get = states.get.bind(states);
      const getMany = states.getMany.bind(states);
      // On Redis `get` is `getMany` of one key: counted once.
      let inGet = false;
      states.get = <S>(kind: Kind, key: string) => {
        if (kind === 'files') reads++;
        inGet = true;
        try {
          return get<S>(kind, key);
        } finally {
          inGet = false;
        }
      };
      states.getMany = <S>(kind: Kind, keys: readonly string[]) => {
        if (kind === 'files' && !inGet) reads += keys.length;
        return getMany<S>(kind, keys);
      };
      return { services: {}, routes: () => undefined };
    },
  };
  /** The reads since the last call. */
  const take = () => {
    const n = reads;
    reads = 0;
    return n;
  };
  return { module, take };
};

/** Issue 34: a file's route guard reads the file for its storage's permission; the handler takes that state instead of reading it again. */
describe("a file request reads the file's state once", function () {
  this.timeout(60_000);
  const counter = fileReads();
  let server: TestServer;
  const F = '/v1/files/o/p';
  const call = async (method: string, path: string, init: RequestInit = {}) => {
    counter.take();
    const res = await fetch(`${server.url}${path}`, { method, ...init });
    const text = await res.text();
    return { status: res.status, text, reads: counter.take() };
  };

  before(async () => {
    const { config } = storagesConfig();
    server = await startServer({ storages: { ...config, allowedVolumes: [tmpdir()] } }, undefined, { capabilities: [counter.module] });
    for (const path of ['/v1/orgs/o', '/v1/projects/o/p'])
      expect((await fetch(`${server.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })).status).to.equal(201);
    expect((await upload(`${server.url}${F}/f`, 'PUT', 'bytes', 'f.txt', 'text/plain')).status).to.equal(201);
  });
  after(() => server.stop(true));

  it('reads, downloads, tags, links, deprecates, undeprecates and updates with one read of the file each', async () => {
    const json = { 'content-type': 'application/json' };
    const form = multipart([{ name: 'file', filename: 'g.txt', data: 'other bytes' }]);
    const requests: [string, string, RequestInit?][] = [
      ['GET', `${F}/f`, { headers: { accept: 'application/ld+json' } }],
      ['GET', `${F}/f`],
      ['GET', `${F}/f?rev=1`, { headers: { accept: 'application/json' } }],
      ['GET', `${F}/f/tags`],
      ['GET', `${F}/f/incoming`],
      ['GET', `${F}/f/outgoing`],
      ['POST', `${F}/f/tags?rev=1`, { headers: json, body: JSON.stringify({ tag: 't', rev: 1 }) }],
      ['DELETE', `${F}/f/tags/t?rev=2`],
      ['DELETE', `${F}/f?rev=3`],
      ['PUT', `${F}/f/undeprecate?rev=4`],
      ['PUT', `${F}/f?rev=5`, { headers: { 'content-type': form.type }, body: new Uint8Array(form.body) }],
    ];
    const seen: string[] = [];
    for (const [method, path, init] of requests) {
      const { status, text, reads } = await call(method, path, init);
      expect(status, `${method} ${path}: ${text}`).to.be.within(200, 201);
      seen.push(`${method} ${path}: ${reads}`);
    }
    expect(seen).to.deep.equal(requests.map(([method, path]) => `${method} ${path}: 1`));
  });

  it('refuses a file that is not there as before (the guard found none to hand over)', async () => {
    const missing = await call('GET', `${F}/none`, { headers: { accept: 'application/ld+json' } });
    expect(missing.status).to.equal(404);
    // The guard found nothing to take the permission from; the service reads again to refuse.
    expect(missing.reads).to.be.at.most(2);
  });
});
