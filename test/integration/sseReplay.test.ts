import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceCreated, seedJournal } from '../support/journal.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { rmSync } from 'node:fs';

const EVENTS = 3_000;

/** Opens N streams from the start and reads them; prints the bytes received when told to stop. */
const CLIENTS = `
const [url, n] = process.argv.slice(1);
let bytes = 0;
for (let i = 0; i < Number(n); i++)
  fetch(url + '/v1/events').then(async (res) => { const r = res.body.getReader(); for (;;) { const { done, value } = await r.read(); if (done) break; bytes += value.length; } }).catch(() => {});
process.on('SIGTERM', () => { console.log(bytes); process.exit(0); });
`;
const STREAMS = 200;

/** The bytes of one replay of the whole log, up to its last event. */
const oneReplayBytes = async (url: string): Promise<number> => {
  const controller = new AbortController();
  const res = await fetch(`${url}/v1/events`, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let tail = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    tail = (tail + decoder.decode(value, { stream: true })).slice(-4096);
    if (tail.includes(`\nid:${EVENTS}\n`)) break;
  }
  controller.abort();
  return bytes;
};

describe('event-stream replays share the event loop', function () {
  this.timeout(120_000);
  let server: Proc;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sse-replay-'));
    await seedJournal(
      join(dir, 'journal', 'events.log'),
      Array.from({ length: EVENTS }, (_, i) =>
        resourceCreated(`http://e/r${i}`, { '@value': 'x'.repeat(400) }, { '@id': `http://e/r${i}`, 'http://x/text': 'x'.repeat(400) }),
      ),
    );
    const port = await freePort();
    server = start({ PORT: String(port), DATA_DIR: dir, BASE_URL: `http://127.0.0.1:${port}` });
    await ready(server);
  });
  after(() => {
    killStarted();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`answers other requests while ${STREAMS} streams replay ${EVENTS} events from the start`, async () => {
    // What one whole replay sends (events with their framing), read once before the load.
    const whole = await oneReplayBytes(server.url);
    // The streams' clients run in a process of their own, so their reading competes with the server only.
    const clients = spawn(process.execPath, ['--input-type=module', '-e', CLIENTS, server.url, String(STREAMS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let report = '';
    clients.stdout!.on('data', (d) => (report += d));
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 10; i++) expect((await fetch(`${server.url}/v1/version`)).status).to.equal(200);
    clients.kill('SIGTERM');
    await new Promise((r) => clients.once('exit', r));
    // Liveness by ordering (speed figures are the bench's): the probes were answered while the
    // replays were under way, begun and not yet done. Each event carries 800 bytes of text.
    const received = Number(report.trim() || 0);
    expect(received, 'bytes the streams received meanwhile').to.be.greaterThan(STREAMS * 100_000);
    expect(received, 'the replays were not over when the probes were answered').to.be.lessThan(STREAMS * whole);
  });
});
