import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killStarted, ready, start } from '../support/process.js';

/** `npm start` (node dist/src/main.js) says what it started, and why it could not. */
describe('start-up (separate processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'registry-startup-'))));
  afterEach(() => {
    killStarted();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('on a busy port prints one clear line, no stack, and exits non-zero', async () => {
    const port = await freePort();
    const busy: Server = await new Promise((resolve) => {
      const s = createServer().listen(port, '127.0.0.1', () => resolve(s));
    });
    try {
      const proc = start({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const code = await proc.exited;
      expect(code).to.not.equal(0);
      expect(proc.output().trim().split('\n')).to.deep.equal([
        `Cannot listen on 127.0.0.1:${port}: the port is in use by another process; stop it or set PORT to another port.`,
      ]);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    // It left the data directory free: the next start on a free port serves it.
    const port2 = await freePort();
    const again = start({ PORT: String(port2), DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    await ready(again);
  });

  it('says what is open and which event log, store and storages are in use', async () => {
    const port = await freePort();
    const proc = start({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    await ready(proc);
    const line = proc.output().trim();
    expect(line.split('\n')).to.have.length(1);
    expect(line).to.include(`registry listening on http://localhost:${port} (127.0.0.1:${port})`);
    expect(line).to.include('open: anonymous callers may do everything until the root ACL is replaced');
    expect(line).to.include(`event log: journal ${join(dataDir, 'journal', 'events.log')}`);
    expect(line).to.include(`store: embedded Oxigraph (${join(dataDir, 'projection')}), text index on`);
    expect(line).to.include('storages: disk (default volume /tmp)');
  });
});
