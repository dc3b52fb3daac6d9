import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killStarted, ready, start } from '../support/process.js';

/** A raw connection: what it receives, and whether it was closed. */
const raw = (port: number) => {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.on('error', () => undefined);
  return { socket, received: () => received, closed, connected: new Promise<void>((r) => socket.once('connect', () => r())) };
};

describe('slow or greedy clients and defaults (separate processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let port: number;
  const env = (extra: Record<string, string> = {}) => ({ PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}`, ...extra });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-limits-'));
    port = await freePort();
  });
  afterEach(() => {
    killStarted();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 unless HOST says otherwise', async () => {
    const server = start(env());
    await ready(server);
    expect(server.output()).to.include(`(127.0.0.1:${port});`);
  });

  it('cuts off a body trickling in with 408 once the request time is over, and logs it', async () => {
    const server = start(env({ REQUEST_TIMEOUT_MILLIS: '1000', HEADERS_TIMEOUT_MILLIS: '500' }));
    await ready(server);
    const client = raw(port);
    await client.connected;
    client.socket.write('PUT /v1/orgs/slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    const trickle = setInterval(() => client.socket.writable && client.socket.write(' '), 300);
    await client.closed;
    clearInterval(trickle);
    expect(client.received())
      .to.match(/^HTTP\/1.1 408/)
      .and.include('RequestTimeout');
    expect(server.output()).to.include('not received within 1000 ms (408)');
    expect((await fetch(`${server.url}/v1/orgs/slow`)).status).to.equal(404);
  });

  it('lets a file upload take longer than the request time while its bytes keep coming, and cuts off one that pauses that long', async () => {
    const server = start(env({ REQUEST_TIMEOUT_MILLIS: '1000', HEADERS_TIMEOUT_MILLIS: '500' }));
    await ready(server);
    const put = (path: string) => fetch(`${server.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await put('/v1/orgs/o')).status).to.equal(201);
    expect((await put('/v1/projects/o/p')).status).to.equal(201);
    const upload = async (id: string, chunks: number, pauseMillis: number) => {
      const boundary = 'BOUNDARY';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`;
      const tail = `\r\n--${boundary}--\r\n`;
      const length = head.length + chunks + tail.length;
      const client = raw(port);
      await client.connected;
      client.socket.write(
        `PUT /v1/files/o/p/${id} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${head}`,
      );
      for (let i = 0; i < chunks && client.socket.writable; i++) {
        await new Promise((r) => setTimeout(r, pauseMillis));
        client.socket.write('x');
      }
      if (client.socket.writable) client.socket.write(tail);
      await client.closed;
      return client.received();
    };
    // 12 bytes 200 ms apart: 2.4 s in all, over the 1 s request time, yet never a pause of 1 s.
    expect(await upload('steady', 12, 200)).to.match(/^HTTP\/1.1 201/);
    expect(await (await fetch(`${server.url}/v1/files/o/p/steady`)).text()).to.equal('x'.repeat(12));
    // A pause of 1.5 s: cut off, and no file.
    expect(await upload('stalled', 2, 1_500)).to.match(/^HTTP\/1.1 408/);
    expect(server.output()).to.include('no byte of the body for 1000 ms (408)');
    expect((await fetch(`${server.url}/v1/files/o/p/stalled`)).status).to.equal(404);
  });

  it('answers 413 before 100 Continue when the announced body is too large, and 417 to other expectations', async () => {
    const server = start(env());
    await ready(server);
    const big = raw(port);
    await big.connected;
    big.socket.write('PUT /v1/orgs/big HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n');
    await big.closed;
    expect(big.received())
      .to.match(/^HTTP\/1.1 413/)
      .and.include('PayloadTooLarge');
    expect(big.received()).to.not.include('100 Continue');

    const small = raw(port);
    await small.connected;
    small.socket.write(
      'PUT /v1/orgs/small HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    // Liveness by ordering: the interim answer comes before any byte of the body is sent.
    while (!small.received().includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 10));
    expect(small.received()).to.match(/^HTTP\/1.1 100 Continue/);
    small.socket.write('{}');
    await small.closed;
    expect(small.received()).to.include('HTTP/1.1 201');

    const odd = raw(port);
    await odd.connected;
    odd.socket.write('GET /v1/version HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n');
    await odd.closed;
    expect(odd.received())
      .to.match(/^HTTP\/1.1 417/)
      .and.include('ExpectationFailed');
    expect(server.output()).to.include('(413 before 100 Continue)').and.include("unsupported expectation 'teapot' (417)");
  });

  it('answers connections beyond the cap with 503 at once instead of silence', async () => {
    const server = start(env({ MAX_CONNECTIONS: '5', MAX_CONNECTIONS_PER_CLIENT: '5' }));
    await ready(server);
    await new Promise((r) => setTimeout(r, 200)); // the readiness probe's connection is gone
    const held = Array.from({ length: 5 }, () => raw(port));
    await Promise.all(held.map((h) => h.connected));
    const extra = raw(port);
    await extra.closed;
    expect(extra.received())
      .to.match(/^HTTP\/1.1 503/)
      .and.include('TooManyConnections');
    for (const h of held) h.socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await fetch(`${server.url}/v1/version`)).status).to.equal(200);
    expect(server.output()).to.include('the limit is 5 (503)');
  });

  it('ends event streams first on SIGTERM and exits though a stream is open', async () => {
    const server = start(env());
    await ready(server);
    const stream = await fetch(`${server.url}/v1/events`);
    const reader = stream.body!.getReader();
    void reader.read().catch(() => undefined);
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  });
});
