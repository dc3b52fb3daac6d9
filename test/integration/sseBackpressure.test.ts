import { Addresses } from '../../src/kernel/Addresses.js';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { get, createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import { EventStreams } from '../../src/streams/EventStreams.js';

const EVENTS = 300;
const BLOB = 'x'.repeat(64 * 1024);

const until = async (what: string, check: () => boolean, deadlineMillis = 10_000): Promise<void> => {
  const deadline = Date.now() + deadlineMillis;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('event streams: a client that stops reading', () => {
  let dir: string;
  let log: JournalEventLog;
  let streams: EventStreams;
  let server: Server;
  let serverRes: ServerResponse | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sse-backpressure-'));
    log = await JournalEventLog.open(join(dir, 'events.log'));
    // ~19 MB of events: far more than the loopback socket buffers hold.
    for (let i = 1; i <= EVENTS; i++)
      await log.append(
        {
          key: `resources/o/p/${i}`,
          kind: 'resources',
          org: 'o',
          project: 'o/p',
          rev: 1,
          event: { type: 'ResourceCreated', instant: '2026-01-01T00:00:00.000Z', id: `${i}`, source: { blob: BLOB } } as never,
        },
        0,
      );
    streams = new EventStreams(
      log,
      { definitionOf: () => undefined },
      async () => ({ addresses: new Addresses('http://127.0.0.1'), projectUuids: () => undefined, schemaOf: () => undefined }),
      async () => undefined,
      { keepAliveMillis: 20, batchSize: 16, perCaller: 1 },
    );
    server = createServer((_req, res) => {
      serverRes = res;
      void streams.serve(res, {}, 0, 'address 127.0.0.1');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a bounded amount in memory while the client stalls, delivers everything once it reads, and releases the stream on disconnect', async () => {
    const port = (server.address() as AddressInfo).port;
    const response: IncomingMessage = await new Promise((resolve) => get({ host: '127.0.0.1', port, path: '/' }, resolve));
    response.pause();
    expect(streams.openStreams).to.equal(1);
    await until('the server waits for the socket to drain', () => serverRes?.writableNeedDrain === true);
    // Stalled: the stream stays blocked on one frame instead of queueing the rest of the log.
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 10));
      expect(serverRes!.writableLength).to.be.below(512 * 1024);
    }

    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.resume();
    await until('every event arrived', () => text.includes(`\nid:${EVENTS}\n`), 20_000);
    const ids = [...text.matchAll(/\nid:(\d+)\n/g)].map((m) => Number(m[1]));
    expect(ids).to.deep.equal(Array.from({ length: EVENTS }, (_, i) => i + 1));

    response.destroy();
    await until('the stream is released', () => streams.openStreams === 0);
    // The released stream no longer follows the log: a later append is not written anywhere.
    await log.append(
      {
        key: 'resources/o/p/late',
        kind: 'resources',
        org: 'o',
        project: 'o/p',
        rev: 1,
        event: { type: 'ResourceCreated', instant: '2026-01-01T00:00:00.000Z' },
      },
      0,
    );
    expect(streams.openStreams).to.equal(0);
  });
});
