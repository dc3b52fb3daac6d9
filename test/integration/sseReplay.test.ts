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

/**
 * Opens N streams from the start and reads them; says "under way" once they received `threshold`
 * bytes together, prints what they received so far on SIGUSR2, and the bytes received when told to stop.
 */
const CLIENTS = `
const [url, n, threshold] = process.argv.slice(1);
let bytes = 0;
let said = false;
for (let i = 0; i < Number(n); i++)
  fetch(url + '/v1/events').then(async (res) => { const r = res.body.getReader(); for (;;) { const { done, value } = await r.read(); if (done) break; bytes += value.length; if (!said && bytes > Number(threshold)) { said = true; console.log('under way'); } } }).catch(() => {});
process.on('SIGUSR2', () => console.log('at ' + bytes));
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
    // Every stream and probe comes from one address: its shares are raised above the load, so the
    // server neither refuses streams (429) nor closes the probes' idle keep-alive sockets under them.
    server = start({
      PORT: String(port),
      DATA_DIR: dir,
      BASE_URL: `http://127.0.0.1:${port}`,
      MAX_CONNECTIONS_PER_CLIENT: String(STREAMS + 50),
      SSE_STREAMS_PER_CALLER: String(STREAMS + 10),
    });
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
    const underWay = STREAMS * 100_000;
    const clients = spawn(process.execPath, ['--input-type=module', '-e', CLIENTS, server.url, String(STREAMS), String(underWay)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let report = '';
    // The probes go as soon as the replays are under way, not after a guess of how long that takes.
    const started = new Promise<void>((resolve) => clients.stdout!.on('data', (d) => ((report += d), report.includes('under way') && resolve())));
    await started;
    // The first probe's answer is noted against what the streams had received by then.
    expect((await fetch(`${server.url}/v1/version`)).status).to.equal(200);
    const atFirstProbe = new Promise<number>((resolve) =>
      clients.stdout!.on('data', () => {
        const at = /at (\d+)/.exec(report);
        if (at) resolve(Number(at[1]));
      }),
    );
    clients.kill('SIGUSR2');
    const receivedByFirstProbe = await atFirstProbe;
    for (let i = 1; i < 10; i++) expect((await fetch(`${server.url}/v1/version`)).status).to.equal(200);
    clients.kill('SIGTERM');
    await new Promise((r) => clients.once('exit', r));
    // Liveness by ordering (speed figures are the bench's): a probe was answered while the replays
    // were under way, begun and not yet done. Each event carries 800 bytes of text.
    const received = Number(report.trim().split('\n').pop() || 0);
    expect(received, 'bytes the streams received meanwhile').to.be.greaterThan(underWay);
    expect(receivedByFirstProbe, 'the replays were not over when the first probe was answered').to.be.lessThan(STREAMS * whole);
  });
});
