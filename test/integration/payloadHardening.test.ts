import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceCreated, seedJournal } from '../support/journal.js';
import { freePort, killStarted, ready, start } from '../support/process.js';

const json = (method: string, url: string, body?: unknown) =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

/** `{"a": {"a": ... 1 ...}}`, `depth` objects deep. */
const nested = (depth: number): string => `${'{"http://x/a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * Payloads that used to be appended and then crash the projection at once and at every restart
 * (separate processes: a crash or a failed restart is what is tested).
 */
describe('payloads the store cannot keep never reach the log (separate processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let port: number;
  const env = () => ({ PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-hardening-'));
    port = await freePort();
  });
  afterEach(() => {
    killStarted();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses what it cannot store with a 400 naming it, keeps serving, accepts named graphs, and boots again with every acknowledged write', async () => {
    const server = start(env());
    await ready(server);
    const base = server.url;
    expect((await json('PUT', `${base}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await json('PUT', `${base}/v1/projects/o/p`, {})).status).to.equal(201);
    const resources = `${base}/v1/resources/o/p/_`;

    const badLanguage = await json('POST', resources, { 'http://x/n': { '@value': 'v', '@language': 'en-' } });
    expect(badLanguage.status).to.equal(400);
    const body = (await badLanguage.json()) as { '@type': string; reason: string };
    expect(body['@type']).to.equal('InvalidJsonLdFormat');
    expect(body.reason).to.include('"v"@en-').and.include('language tag');

    for (const id of ['http://e/\ud800', 'http://e/a>b', 'http://e/a"b', 'http://e/a\nb', 'http://e/a\u0000b']) {
      const res = await json('POST', resources, { '@id': id, 'http://x/n': 1 });
      expect(res.status, JSON.stringify(id)).to.equal(400);
      expect(((await res.json()) as { '@type': string })['@type']).to.equal('InvalidResourceId');
    }

    const deep = await json('POST', resources, nested(2_000));
    expect(deep.status).to.equal(400);
    const deepBody = (await deep.json()) as { '@type': string; reason: string };
    expect(deepBody['@type']).to.equal('MalformedRequestContentRejection');
    expect(deepBody.reason).to.not.include('stack');

    // Named graphs are ordinary JSON-LD: accepted, their triples kept in the revision graph.
    const named = await json('PUT', `${resources}/${encodeURIComponent('http://e/g')}`, {
      '@id': 'http://e/g',
      '@graph': [{ '@id': 'http://e/h', 'http://x/q': 1 }],
    });
    expect(named.status).to.equal(201);
    const container = await json('PUT', `${resources}/${encodeURIComponent('http://e/c')}`, {
      '@context': { inner: { '@id': 'http://x/inner', '@container': '@graph' } },
      '@id': 'http://e/c',
      inner: { '@id': 'http://e/d', 'http://x/q': { '@graph': { '@id': 'http://e/f', 'http://x/r': 2 } } },
    });
    expect(container.status).to.equal(201);
    const triples = await (await fetch(`${resources}/${encodeURIComponent('http://e/g')}`, { headers: { accept: 'application/n-triples' } })).text();
    expect(triples).to.include('<http://e/h> <http://x/q> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .');
    expect((await fetch(`${resources}/${encodeURIComponent('http://e/c')}`)).status).to.equal(200);

    // Deep, but within the limit: stored and fetched.
    const within = await json('PUT', `${resources}/${encodeURIComponent('http://e/deep')}`, JSON.parse(nested(90)));
    expect(within.status).to.equal(201);
    expect((await fetch(`${resources}/${encodeURIComponent('http://e/deep')}`)).status).to.equal(200);

    // The process is still there, then boots again on the same directory with every acknowledged write.
    await new Promise((r) => setTimeout(r, 300));
    expect(server.child.exitCode).to.equal(null);
    server.child.kill('SIGKILL');
    await server.exited;
    const again = start(env());
    await ready(again);
    for (const id of ['http://e/g', 'http://e/c', 'http://e/deep'])
      expect((await fetch(`${again.url}/v1/resources/o/p/_/${encodeURIComponent(id)}`)).status, id).to.equal(200);
    const version = (await (await fetch(`${again.url}/v1/version`)).json()) as { projection: { quarantinedEvents: number } };
    expect(version.projection.quarantinedEvents).to.equal(0);
  });

  it('quarantines an event it cannot project at replay, says which, and goes on with the rest', async () => {
    // A log written before the checks existed: its third event cannot be projected.
    await seedJournal(join(dataDir, 'journal', 'events.log'), [
      resourceCreated('http://e/bad', { '@value': 'v', '@language': 'en-' }),
      resourceCreated('http://e/good', { '@value': 'v' }),
    ]);
    const server = start(env());
    await ready(server);
    const version = (await (await fetch(`${server.url}/v1/version`)).json()) as { projection: { quarantinedEvents: number } };
    expect(version.projection.quarantinedEvents).to.equal(1);
    expect(server.output()).to.match(/event 3 quarantined: resources .*http:\/\/e\/bad/);
    expect(server.output()).to.include('"quarantined":3');
    expect((await fetch(`${server.url}/v1/resources/o/p/_/${encodeURIComponent('http://e/good')}`)).status).to.equal(200);
    expect((await fetch(`${server.url}/v1/resources/o/p/_/${encodeURIComponent('http://e/bad')}`)).status).to.equal(404);
    expect((await json('PUT', `${server.url}/v1/resources/o/p/_/${encodeURIComponent('http://e/next')}`, { 'http://x/n': 1 })).status).to.equal(201);
  });
});
