import { expect } from 'chai';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { Config } from '../../src/config/Config.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';

/**
 * One client cannot hold every connection (issue 32, finding 4; finding 11 for proxies). Clients are
 * told apart by their loopback source address (127.0.0.2, .3, ...: all of 127/8 is loopback).
 */

interface Held {
  socket: Socket;
  /** The status line of its first answer. */
  status: string;
  /** Everything received so far. */
  received(): string;
  closed: Promise<void>;
  isClosed(): boolean;
}

const held: Socket[] = [];

/** A keep-alive connection from `from` that sends one request and stays open: idle once answered, busy for as long as an event stream lasts. */
const open = (server: TestServer, from: string, path: string, headers: Record<string, string> = {}): Promise<Held> =>
  new Promise((resolve, reject) => {
    const socket = connect({ port: Number(new URL(server.url).port), host: '127.0.0.1', localAddress: from });
    held.push(socket);
    let received = '';
    let closed = false;
    const closedPromise = new Promise<void>((r) => socket.once('close', () => ((closed = true), r())));
    socket.on('error', () => undefined);
    socket.once('error', reject);
    socket.on('data', (d: Buffer) => {
      const first = received === '';
      received += d.toString('utf8');
      if (first) resolve({ socket, status: received.split('\r\n')[0]!, received: () => received, closed: closedPromise, isClosed: () => closed });
    });
    socket.once('close', () => received === '' && resolve({ socket, status: '', received: () => '', closed: closedPromise, isClosed: () => true }));
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`);
  });

/** The whole answer of a connection the server closes (a refusal). */
const refused = async (h: Held): Promise<string> => {
  await h.closed;
  return h.received();
};

const startWith = (http: Partial<NonNullable<Config['http']>>, more: Partial<Config> = {}) =>
  startServer({ http: { requestTimeoutMillis: 30_000, headersTimeoutMillis: 10_000, keepAliveTimeoutMillis: 60_000, ...http }, ...more });

afterEach(() => {
  for (const s of held.splice(0)) s.destroy();
});

describe('connections: one client address holds only its share', () => {
  let server: TestServer;
  before(async () => (server = await startWith({ maxConnections: 10, maxConnectionsPerClient: 3 })));
  after(() => server?.stop(true));

  it('a client keeping as many idle keep-alive connections as the cap allows holds only its share (its longest-idle closed), and /health/live answers another client', async () => {
    const greedy: Held[] = [];
    for (let i = 0; i < 10; i++) greedy.push(await open(server, '127.0.0.2', '/health/live'));
    expect(greedy.map((h) => h.status)).to.deep.equal(Array.from({ length: 10 }, () => 'HTTP/1.1 200 OK'));
    // Each new one past the share closed the client's own longest-idle one.
    await Promise.all(greedy.slice(0, 7).map((h) => h.closed));
    expect(greedy.map((h) => h.isClosed())).to.deep.equal([...Array.from({ length: 7 }, () => true), false, false, false]);
    expect(server.registry.connections.open).to.equal(3);
    const other = await open(server, '127.0.0.3', '/health/live');
    expect(other.status).to.equal('HTTP/1.1 200 OK');
  });

  it('a client holding its share busy (event streams) is refused 503 TooManyConnections; another client is served', async () => {
    for (let i = 0; i < 3; i++) expect((await open(server, '127.0.0.4', '/v1/events')).status).to.equal('HTTP/1.1 200 OK');
    const over = await refused(await open(server, '127.0.0.4', '/health/live'));
    expect(over).to.match(/^HTTP\/1.1 503 /);
    expect(over).to.include('"@type":"TooManyConnections"').and.include('"limit":3');
    expect((await open(server, '127.0.0.5', '/health/live')).status).to.equal('HTTP/1.1 200 OK');
  });
});

describe('connections: idle keep-alive connections are closed before any new one is refused', () => {
  let server: TestServer;
  before(async () => (server = await startWith({ maxConnections: 4, maxConnectionsPerClient: 2 })));
  after(() => server?.stop(true));

  it('at the cap, a new connection closes the longest-idle one and is served; with none idle it is 503 TooManyConnections', async () => {
    const idle: Held[] = [];
    for (const from of ['127.0.0.2', '127.0.0.2', '127.0.0.3', '127.0.0.3']) idle.push(await open(server, from, '/health/live'));
    const late = await open(server, '127.0.0.4', '/health/live');
    expect(late.status).to.equal('HTTP/1.1 200 OK');
    await idle[0]!.closed;
    expect(idle.map((h) => h.isClosed())).to.deep.equal([true, false, false, false]);
    // Every connection busy (streams): nothing to close, a new one is refused.
    for (const h of idle.slice(1)) h.socket.destroy();
    late.socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    for (const from of ['127.0.0.5', '127.0.0.5', '127.0.0.6', '127.0.0.6'])
      expect((await open(server, from, '/v1/events')).status).to.equal('HTTP/1.1 200 OK');
    const over = await refused(await open(server, '127.0.0.7', '/health/live'));
    expect(over).to.match(/^HTTP\/1.1 503 /);
    expect(over).to.include('"@type":"TooManyConnections"').and.include('maximum of 4 open connections');
  });
});

describe('event streams: a cap per caller (SSE_STREAMS_PER_CALLER)', () => {
  let server: TestServer;
  before(async () => (server = await startWith({ maxConnections: 20, maxConnectionsPerClient: 5 }, { sseStreamsPerCaller: 2 })));
  after(() => server?.stop(true));

  it('a caller holding its streams gets 429 TooManyEventStreams for one more; another caller gets a stream', async () => {
    for (const path of ['/v1/events', '/v1/resources/events']) expect((await open(server, '127.0.0.2', path)).status).to.equal('HTTP/1.1 200 OK');
    const third = await open(server, '127.0.0.2', '/v1/events');
    expect(third.status).to.equal('HTTP/1.1 429 Too Many Requests');
    expect(third.received()).to.include('"@type":"TooManyEventStreams"').and.include('"limit":2');
    expect((await open(server, '127.0.0.3', '/v1/events')).status).to.equal('HTTP/1.1 200 OK');
  });

  it('a closed stream gives its place back', async () => {
    const first = await open(server, '127.0.0.4', '/v1/events');
    await open(server, '127.0.0.4', '/v1/events');
    first.socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await open(server, '127.0.0.4', '/v1/events')).status).to.equal('HTTP/1.1 200 OK');
  });
});

describe('connections and streams of one subject count together, from whatever address', function () {
  this.timeout(20_000);
  let server: TestServer;
  let provider: OidcIssuer;
  let token: string;
  before(async () => {
    provider = await OidcIssuer.start();
    server = await startWith({ maxConnections: 20, maxConnectionsPerClient: 3 }, { sseStreamsPerCaller: 3 });
    const realm = await fetch(`${server.url}/v1/realms/r1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'r1', openIdConfig: provider.openIdConfig }),
    });
    expect(realm.status).to.equal(201);
    token = await provider.sign({ sub: 'alice' });
  });
  after(async () => {
    await server?.stop(true);
    await provider?.stop();
  });

  it("a subject's streams from three addresses fill its share: its next request is 503 TooManyConnections, an anonymous one from the same address is served", async () => {
    const auth = { Authorization: `Bearer ${token}` };
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) expect((await open(server, from, '/v1/events', auth)).status).to.equal('HTTP/1.1 200 OK');
    const over = await refused(await open(server, '127.0.0.5', '/health/live', auth));
    expect(over).to.match(/^HTTP\/1.1 503 /);
    expect(over).to.include('"@type":"TooManyConnections"');
    expect((await open(server, '127.0.0.5', '/health/live')).status).to.equal('HTTP/1.1 200 OK');
  });
});

describe('TRUSTED_PROXIES: the client address behind a configured proxy', () => {
  let server: TestServer;
  before(async () => (server = await startWith({ maxConnections: 20, maxConnectionsPerClient: 2 }, { sseStreamsPerCaller: 1, trustedProxies: ['127.0.0.9'] })));
  after(() => server?.stop(true));

  it('from a trusted proxy, X-Forwarded-For names the caller: two clients behind it each get a stream, one client no second', async () => {
    const via = (client: string) => ({ 'X-Forwarded-For': client });
    expect((await open(server, '127.0.0.9', '/v1/events', via('10.0.0.1'))).status).to.equal('HTTP/1.1 200 OK');
    expect((await open(server, '127.0.0.9', '/v1/events', via('10.0.0.2'))).status).to.equal('HTTP/1.1 200 OK');
    expect((await open(server, '127.0.0.9', '/v1/events', via('10.0.0.1'))).status).to.equal('HTTP/1.1 429 Too Many Requests');
    // The proxy's own connections are not counted as one client's (its share is 2): a third client is served.
    expect((await open(server, '127.0.0.9', '/v1/events', via('10.0.0.3'))).status).to.equal('HTTP/1.1 200 OK');
  });

  it('from anyone else, X-Forwarded-For is not read: a client cannot pass for many', async () => {
    expect((await open(server, '127.0.0.2', '/v1/events', { 'X-Forwarded-For': '10.0.1.1' })).status).to.equal('HTTP/1.1 200 OK');
    const second = await open(server, '127.0.0.2', '/v1/events', { 'X-Forwarded-For': '10.0.1.2' });
    expect(second.status).to.equal('HTTP/1.1 429 Too Many Requests');
  });
});
