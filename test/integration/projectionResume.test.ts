import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killStarted, ready, start } from '../support/process.js';

const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Durable projections resume from their own positions after a crash (separate processes). */
describe('projection runners resume from their checkpoints (separate processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let port: number;
  const env = () => ({ PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` });
  const recorded = (): number | undefined => {
    const file = join(dataDir, 'projection', 'checkpoints.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>)['text'] : undefined;
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-resume-'));
    port = await freePort();
  });
  afterEach(() => {
    killStarted();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('killed with no snapshot, the text index resumes from its recorded position instead of indexing the log again', async () => {
    let server = start(env());
    await ready(server);
    expect((await put(`${server.url}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${server.url}/v1/projects/o/p`, {})).status).to.equal(201);
    for (let i = 1; i <= 5; i++) expect((await put(`${server.url}/v1/resources/o/p/_/r${i}`, { 'http://x/word': `marmot${i}` })).status).to.equal(201);
    const offsets = (await (await fetch(`${server.url}/v1/views/o/p/search/offset`)).json()) as {
      _results: { projectionId: string; offset: { value?: number } }[];
    };
    const head = offsets._results.find((r) => r.projectionId.endsWith('textProjection'))!.offset.value!;
    for (let i = 0; i < 500 && recorded() !== head; i++) await new Promise((r) => setTimeout(r, 10));
    expect(recorded()).to.equal(head);
    // No snapshot was taken (20,000 events): the states are replayed from the start, the text index is not.
    server.child.kill('SIGKILL');
    await server.exited;
    expect(existsSync(join(dataDir, 'projection', 'snapshot.json'))).to.equal(false);
    server = start(env());
    await ready(server);
    expect(server.output()).to.include(`projection text: resumes from its recorded position ${head} (snapshot at 0)`);
    expect(server.output()).not.to.include('items indexed from the log');
    const found = (await (await fetch(`${server.url}/v1/resources/o/p?q=marmot3`)).json()) as { _total: number };
    expect(found._total).to.equal(1);
    // Later writes are indexed from there on.
    expect((await put(`${server.url}/v1/resources/o/p/_/r6`, { 'http://x/word': 'marmot6' })).status).to.equal(201);
    expect(((await (await fetch(`${server.url}/v1/resources/o/p?q=marmot6`)).json()) as { _total: number })._total).to.equal(1);
  });

  it('rebuilds the text index from the log when its file is gone, whatever position was recorded', async () => {
    let server = start(env());
    await ready(server);
    expect((await put(`${server.url}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${server.url}/v1/projects/o/p`, {})).status).to.equal(201);
    expect((await put(`${server.url}/v1/resources/o/p/_/r1`, { 'http://x/word': 'otter' })).status).to.equal(201);
    server.child.kill('SIGTERM');
    await server.exited;
    expect(recorded()).to.be.a('number');
    rmSync(join(dataDir, 'projection', 'text.sqlite'));
    server = start(env());
    await ready(server);
    expect(server.output()).to.include('projection text: no recorded position; rebuilt from the states');
    expect(((await (await fetch(`${server.url}/v1/resources/o/p?q=otter`)).json()) as { _total: number })._total).to.equal(1);
  });
});
