import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killStarted, ready, start } from '../support/process.js';

/** The request log as an operator reads it: the registry as `npm start` runs it, logging at `info`. */
describe('request log lines carry the request id (a separate process)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'request-log-'))));
  after(() => {
    killStarted();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs one line per request with the id it echoed: the sane one given, or a new one for a bad one', async () => {
    const port = await freePort();
    const registry = start({ PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dir, LOG_LEVEL: 'info', WORKERS: '0' });
    await ready(registry);
    const given = await fetch(`${registry.url}/v1/orgs/nothing-here`, { headers: { 'x-request-id': 'abc-123' } });
    expect([given.status, given.headers.get('x-request-id')]).to.deep.equal([404, 'abc-123']);
    const fresh = await fetch(`${registry.url}/v1/version`, { headers: { 'x-request-id': 'bad id with spaces' } });
    const freshId = fresh.headers.get('x-request-id')!;
    expect(freshId).to.match(/^[0-9a-f-]{36}$/);
    registry.child.kill('SIGTERM');
    await registry.exited;
    const lines = registry
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { req?: { id: string; method: string; path: string }; status?: number; msg: string });
    const line = (id: string) => lines.filter((l) => l.req?.id === id);
    expect(line('abc-123')).to.have.length(1);
    expect(line('abc-123')[0]).to.deep.include({ status: 404, msg: 'request refused', req: { id: 'abc-123', method: 'GET', path: '/v1/orgs/nothing-here' } });
    expect(line(freshId)).to.have.length(1);
    expect(line(freshId)[0]).to.include({ status: 200, msg: 'request completed' });
    expect(registry.output()).to.not.include('bad id with spaces');
  });
});
