import { expect } from 'chai';
import { connect } from 'node:net';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/**
 * A client that sends its headers a line at a time and never closes its side of the connection
 * (half-open allowed): it keeps a connection for as long as the server does not close it itself.
 */
const slowClient = (port: number) => {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  socket.on('data', (d) => (received += d));
  socket.on('error', () => undefined);
  const answered = new Promise<void>((r) => {
    socket.once('end', () => r());
    socket.once('close', () => r());
  });
  // Written at once, ahead of the header lines (writes before the connection are queued in order).
  socket.write('GET /v1/version HTTP/1.1\r\nHost: x\r\n');
  const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`), 50);
  return {
    answered,
    received: () => received,
    stop: () => {
      clearInterval(trickle);
      socket.destroy();
    },
  };
};

describe('slow clients do not hold the connection limit', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({ http: { headersTimeoutMillis: 300, requestTimeoutMillis: 2_000, keepAliveTimeoutMillis: 5_000, maxConnections: 100 } });
  });
  after(() => server?.stop(true));

  it('cuts 300 sockets trickling their headers off at the headers timeout and closes them, so a normal client is answered', async () => {
    const port = Number(new URL(server.url).port);
    const slow = Array.from({ length: 300 }, () => slowClient(port));
    try {
      // Each is answered: 503 past the limit at once, 408 once its headers took too long; then closed by the server.
      await Promise.all(slow.map((c) => c.answered));
      const statuses = slow.map((c) => c.received().slice(9, 12));
      expect(statuses.filter((s) => s === '408').length, 'cut off at the headers timeout').to.be.greaterThan(0);
      // A socket closed while its unread header lines sit in the server's buffer may be reset before the answer arrives ('').
      expect(
        statuses.every((s) => s === '408' || s === '503' || s === ''),
        statuses.join(' '),
      ).to.equal(true);
      // The slow sockets no longer count: a normal client is served (not 503 TooManyConnections).
      const res = await fetch(`${server.url}/v1/version`);
      expect(res.status, await res.text()).to.equal(200);
    } finally {
      for (const c of slow) c.stop();
    }
  });
});
