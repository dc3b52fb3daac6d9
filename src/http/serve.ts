import { createServer, maxHeaderSize } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { rejections } from '../domain/rejections.js';
import type { Rejection } from '../kernel/Rejection.js';
import { context } from '../kernel/vocabulary.js';
import { statusOf } from './statusOf.js';
import type { ConnectionShares } from './ConnectionShares.js';

/** What the HTTP server allows one client: slow or greedy clients are cut off, and told so. */
export interface HttpLimits {
  /** The whole request (headers and body) must arrive within this time; then 408. */
  requestTimeoutMillis: number;
  /** The headers must arrive within this time. */
  headersTimeoutMillis: number;
  /** Idle keep-alive connections are closed after this time. */
  keepAliveTimeoutMillis: number;
  /** Open connections beyond this are answered 503 and closed at once (the longest-idle keep-alive connection is closed first, if any). */
  maxConnections: number;
  /** Open connections one client address, and one caller, may hold (503 beyond): well under `maxConnections`, so no one client holds them all. */
  maxConnectionsPerClient: number;
}

export interface ServeOptions extends HttpLimits {
  host: string;
  port: number;
  /** The largest body the route of a request accepts, known before its body is read. */
  bodyLimit(req: IncomingMessage): number;
  /** Whether the request's body is streamed through (a file upload): it may take as long as bytes keep coming. */
  streamedBody(req: IncomingMessage): boolean;
  /** Where refusals are reported. */
  log(line: string): void;
  /** The open connections and each client's share of them (the app counts requests' callers in the same). */
  connections: ConnectionShares;
}

const errorBody = (rejection: Rejection) =>
  JSON.stringify({ '@context': context('error'), '@type': rejection.type, reason: rejection.reason, ...rejection.fields });

const refuse = (res: ServerResponse, rejection: Rejection) => {
  res.writeHead(statusOf(rejection.type) ?? 400, { 'Content-Type': 'application/ld+json', Connection: 'close' });
  res.end(errorBody(rejection));
};

/**
 * Closes a refused connection for good: the answer is written, then the socket destroyed. Ending it
 * only half-closes it, and a client that never reads nor closes its side keeps it open (FIN-WAIT-2)
 * and counted against the connection limit for as long as it likes.
 */
const closeAfter = (socket: Socket, text: string): void => {
  const timer = setTimeout(() => socket.destroy(), 1_000);
  timer.unref();
  socket.end(text, () => {
    clearTimeout(timer);
    socket.destroy();
  });
};

/** A whole HTTP response written on a raw socket, for connections refused before HTTP parsing starts. */
const rawResponse = (socket: Socket, rejection: Rejection): void => {
  const body = errorBody(rejection);
  const status = statusOf(rejection.type) ?? 400;
  closeAfter(
    socket,
    `HTTP/1.1 ${status} ${rejection.type}\r\nContent-Type: application/ld+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
};

/** A request that announces a body. */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * The request's body within `REQUEST_TIMEOUT_MILLIS` of its headers, or, for a streamed body (a file
 * upload of any size), no pause in it that long: a body trickling in is cut off with 408 either way.
 * Node's own request timeout cannot tell the two apart (one limit for the whole server), so it is off
 * and this takes its place; the headers keep Node's own limit.
 */
const timeBody = (req: IncomingMessage, res: ServerResponse, options: ServeOptions): void => {
  if (!hasBody(req)) return;
  const millis = options.requestTimeoutMillis;
  const cutOff = (what: string) => {
    if (req.complete) return;
    // Answered already (a refusal before the body was read), and the rest of the body stalls: drop it.
    if (res.writableEnded) return void req.socket.destroy();
    options.log(`refused ${req.method} ${req.url} from ${req.socket.remoteAddress}: ${what} (408)`);
    if (res.headersSent) return void req.socket.destroy();
    res.once('finish', () => req.socket.destroy());
    refuse(res, rejections.requestTimeout(millis));
  };
  if (options.streamedBody(req)) {
    // A 'timeout' listener on the request keeps Node from destroying the socket before the answer;
    // once the request is complete Node no longer calls it, and sets its keep-alive timeout itself.
    req.setTimeout(millis, () => cutOff(`no byte of the body for ${millis} ms`));
    return;
  }
  const timer = setTimeout(() => cutOff(`not received within ${millis} ms`), millis);
  res.once('close', () => clearTimeout(timer));
};

/**
 * The HTTP server with its limits: the request's body within a time (a body trickling forever is cut
 * off with 408; a streamed upload only when it pauses that long), `Expect: 100-continue` answered 413 before `100 Continue` when the announced body is
 * too large and 417 for any other expectation, and a cap on open connections (beyond it: 503 at
 * once, instead of silence at the file-descriptor limit; idle keep-alive connections are closed before
 * any is refused, and one client may hold only its share: ConnectionShares). Every refusal is logged.
 */
export const serve = (app: RequestListener, options: ServeOptions): Promise<Server> => {
  const server = createServer(
    {
      // Bodies are timed per request (timeBody); headers by Node.
      requestTimeout: 0,
      headersTimeout: Math.min(options.headersTimeoutMillis, options.requestTimeoutMillis),
      keepAliveTimeout: options.keepAliveTimeoutMillis,
      // Node checks these timeouts on an interval (30 s by default): often enough to hold them.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(options.requestTimeoutMillis / 4))),
    },
    app,
  );
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const length = Number(req.headers['content-length']);
    const limit = options.bodyLimit(req);
    if (Number.isFinite(length) && length > limit) {
      options.log(`refused ${req.method} ${req.url}: announced body of ${length} bytes over the limit of ${limit} (413 before 100 Continue)`);
      return refuse(res, rejections.payloadTooLarge(limit));
    }
    res.writeContinue();
    timeBody(req, res, options);
    app(req, res);
  });
  const { connections } = options;
  // Busy from its request until its answer is done: only then is a connection idle, and closable first.
  const track = (req: IncomingMessage, res: ServerResponse) => {
    connections.begin(req.socket);
    res.once('close', () => connections.end(req.socket));
  };
  server.prependListener('checkContinue', track);
  server.prependListener('checkExpectation', track);
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    track(req, res);
    timeBody(req, res, options);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const expectation = String(req.headers['expect']);
    options.log(`refused ${req.method} ${req.url}: unsupported expectation '${expectation}' (417)`);
    refuse(res, rejections.expectationFailed(expectation));
  });
  // Before the HTTP parser sees the connection: a refused one is answered and never parsed.
  server.prependListener('connection', (socket: Socket) => {
    const refusal = connections.admit(socket);
    if (refusal === undefined) return;
    const { maxConnections, maxConnectionsPerClient } = connections.limits;
    options.log(
      refusal.whole
        ? `refused a connection from ${socket.remoteAddress}: ${connections.open} connections open, none idle, the limit is ${maxConnections} (503)`
        : `refused a connection from ${socket.remoteAddress}: it holds its share of ${maxConnectionsPerClient} connections, none idle (503)`,
    );
    socket.pause();
    rawResponse(socket, refusal.whole ? rejections.tooManyConnections(maxConnections) : rejections.tooManyClientConnections(maxConnectionsPerClient));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return void socket.destroy();
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Only the headers are timed by Node (the bodies by timeBody): headers that trickle in are cut off here.
      const millis = Math.min(options.headersTimeoutMillis, options.requestTimeoutMillis);
      options.log(`refused a request from ${socket.remoteAddress}: its headers not received within ${millis} ms (408)`);
      rawResponse(socket, rejections.requestTimeout(millis));
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      options.log(`refused a request from ${socket.remoteAddress}: request line and headers over ${maxHeaderSize} bytes (400)`);
      return rawResponse(socket, rejections.requestHeadersTooLarge(maxHeaderSize));
    }
    rawResponse(socket, rejections.malformedHttp(String(error.code ?? error.message)));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
};
