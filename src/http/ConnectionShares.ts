import type { Socket } from 'node:net';

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerClient: number;
}

/** Why a connection or a request was refused: the server is full, or one client holds its share. */
export type Refusal = { whole: true } | { whole: false; key: string };

interface Held {
  readonly socket: Socket;
  /** Its client's address: what it counts against from the start (none through a trusted proxy, whose connections carry many clients). */
  readonly own: string | undefined;
  /** The caller of its latest request (subject, or client address when anonymous): what it counts against as well. */
  caller: string | undefined;
  /** Requests on it not yet answered: none, it is idle (keep-alive). */
  requests: number;
  /** Whether it served a request already: a fresh connection is not idle, it is waiting for its first request. */
  served: boolean;
}

/**
 * The open connections and whom they count against. `MAX_CONNECTIONS` alone is one pool that one
 * client can fill (1,000 idle keep-alive sockets, or as many open event streams); so each client
 * address, and each caller (subject, or address when anonymous), has a share well under it, and
 * idle keep-alive connections are closed before any new one is refused: an idle one costs its
 * client a reconnect, a refusal costs another client its request.
 */
export class ConnectionShares {
  private readonly held = new Map<Socket, Held>();
  private readonly byKey = new Map<string, Set<Held>>();
  /** Idle connections, longest idle first (insertion order). */
  private readonly idle = new Set<Held>();

  constructor(
    readonly limits: ConnectionLimits,
    /** Whether an address is a configured proxy: its connections carry many clients, counted per request instead. */
    private readonly trustedProxy: (address: string) => boolean = () => false,
  ) {}

  get open(): number {
    return this.held.size;
  }

  /** Counts a new connection, closing idle ones to make room if need be; or says why it is refused (nothing counted). */
  admit(socket: Socket): Refusal | undefined {
    const address = socket.remoteAddress ?? 'unknown';
    const key = this.trustedProxy(address) ? undefined : clientAddressKey(address);
    // Full with nothing idle: the server's refusal, whoever asks (the client's share is beside the point).
    if (this.held.size >= this.limits.maxConnections && this.idle.size === 0) return { whole: true };
    if (key !== undefined && !this.room(key)) return { whole: false, key };
    if (this.held.size >= this.limits.maxConnections && !this.closeIdle(this.idle)) return { whole: true };
    const entry: Held = { socket, own: key, caller: undefined, requests: 0, served: false };
    this.held.set(socket, entry);
    if (key !== undefined) this.count(key, entry);
    socket.once('close', () => this.release(entry));
    return undefined;
  }

  /** A request began on the connection: it is busy until it is answered. */
  begin(socket: Socket): void {
    const entry = this.held.get(socket);
    if (!entry) return;
    entry.requests++;
    entry.served = true;
    this.idle.delete(entry);
  }

  /** A request on the connection was answered: with none left, it is idle (and the first to be closed). */
  end(socket: Socket): void {
    const entry = this.held.get(socket);
    if (!entry || entry.requests === 0) return;
    entry.requests--;
    if (entry.requests === 0 && !socket.destroyed) this.idle.add(entry);
  }

  /**
   * Counts the connection against the caller of its request as well (`callerKey`), if the caller
   * has room (closing the caller's idle connections first); false if the caller holds its share.
   */
  claim(socket: Socket, callerKey: string): boolean {
    const entry = this.held.get(socket);
    if (!entry || entry.caller === callerKey) return true;
    if (entry.own !== callerKey && !this.room(callerKey, entry)) return false;
    // Behind a proxy, a connection serves one client after another: it counts against the latest.
    if (entry.caller !== undefined && entry.caller !== entry.own) this.uncount(entry.caller, entry);
    entry.caller = callerKey;
    this.count(callerKey, entry);
    return true;
  }

  /** Whether the key may hold one more connection (besides `except`), after closing its idle ones if it holds its share. */
  private room(key: string, except?: Held): boolean {
    const mine = this.byKey.get(key);
    const others = (mine?.size ?? 0) - (except && mine?.has(except) ? 1 : 0);
    if (others < this.limits.maxConnectionsPerClient) return true;
    return this.closeIdle(mine!, except);
  }

  /** Closes the longest-idle connection among `among`: true if there was one. */
  private closeIdle(among: Iterable<Held>, except?: Held): boolean {
    for (const entry of among) {
      if (entry === except || entry.requests > 0 || !entry.served) continue;
      this.release(entry);
      // Between requests nothing is being written: as Node closes a connection at its keep-alive timeout.
      entry.socket.destroy();
      return true;
    }
    return false;
  }

  private release(entry: Held): void {
    if (this.held.get(entry.socket) !== entry) return;
    this.held.delete(entry.socket);
    this.idle.delete(entry);
    if (entry.own !== undefined) this.uncount(entry.own, entry);
    if (entry.caller !== undefined) this.uncount(entry.caller, entry);
  }

  private count(key: string, entry: Held): void {
    let set = this.byKey.get(key);
    if (!set) this.byKey.set(key, (set = new Set()));
    set.add(entry);
  }

  private uncount(key: string, entry: Held): void {
    const set = this.byKey.get(key);
    if (!set) return;
    set.delete(entry);
    if (!set.size) this.byKey.delete(key);
  }
}

/** Whom a client address counts as: a connection's own, and an anonymous caller's (the same spelling, so they count once). */
export const clientAddressKey = (address: string): string => `address ${address}`;
