/** Where an external SPARQL 1.1 server answers, and how to reach it. */
export interface SparqlServer {
  /** SPARQL 1.1 Protocol, queries. */
  query: string;
  /** SPARQL 1.1 Update (default: the query endpoint, as Virtuoso and Oxigraph server take both). */
  update?: string;
  /** Graph Store HTTP Protocol, indirect graph identification (`?graph=`). */
  gsp?: string;
  /** HTTP Basic credentials, when the server asks for them. */
  user?: string;
  password?: string;
  /**
   * The server's fast write path for the registry's writes (`SPARQL_FAST_WRITES`): `virtuoso` sends
   * each update as Virtuoso's `DEFINE sql:log-enable 2` (no transaction log, each row committed as
   * it goes; measured 1.15–1.8× the triples/s of the logged `INSERT DATA`, bench/storeWritePath.ts),
   * or `0` (no log, one transaction) for an update that must be applied whole. Everything the
   * registry writes into the store is a projection of the log, so its durability is the log's: a
   * server that crashes comes back at its last checkpoint (every write after it lost, logged or
   * not, once one was unlogged: measured), its recorded position included, which was written after
   * the changes it covers, and the writer writes the rest again from there (`storeWriter`).
   */
  fastWrites?: 'virtuoso';
  /**
   * The server's own text index of listings' texts (`SPARQL_TEXT_INDEX`): `virtuoso`, its free-text
   * index set up over `urn:registry:text:t` (docker/virtuoso/text-index.sql), filled by the store's
   * writer after each batch, finds `q`'s candidates in place of word triples (textGraph.ts).
   */
  textIndex?: 'virtuoso';
  /**
   * The same index over the search API's documents (`SPARQL_SEARCH_TEXT_INDEX`, searchGraph.ts): one
   * text literal a field in place of a triple a word. A trade, not a default: the store's writer
   * does less (1.07-1.45× its catch-up rate), searches of frequent words take 1.6-4.4× longer.
   */
  searchTextIndex?: 'virtuoso';
}

export interface SparqlHttpOptions {
  /** Bound of one request, in ms. */
  timeoutMillis: number;
  /** Attempts of a request that failed for a transient reason, back-off doubling from 100 ms. */
  attempts?: number;
}

/** The server refused a request, or did not answer it in time / after its retries. */
export class SparqlRequestFailed extends Error {
  constructor(
    message: string,
    /** HTTP status, undefined when no answer came (network, timeout). */
    readonly status: number | undefined,
    readonly timedOut = false,
    /** The server answered that it cannot serve now (a gateway status, a deadlock), not that it refuses the request. */
    private readonly busy = false,
  ) {
    super(message);
  }

  /** The store is away or busy (no answer, a timeout, a transient status after every retry): the same request may pass later. */
  get unavailable(): boolean {
    return this.status === undefined || this.busy;
  }
}

/**
 * Virtuoso answers a deadlocked transaction with a 500 whose body names SQL state 40001 (`SR172:
 * Transaction deadlocked`); it is transient (retry), as are the gateway statuses and network errors.
 * Other 5xx (a query error on some servers) and every 4xx are final.
 */
const transient = (status: number, body: string): boolean =>
  status === 502 || status === 503 || status === 504 || (status === 500 && /\b40001\b|SR172|deadlock/i.test(body));

/**
 * A client of the standard protocols over Node's fetch: SPARQL 1.1 Protocol (POST form bodies, so
 * long queries pass), SPARQL 1.1 Update (`application/sparql-update`) and the Graph Store HTTP
 * Protocol. Every request is bounded by its timeout; transient failures are retried with back-off,
 * which the callers allow by making every write idempotent.
 */
export class SparqlHttpClient {
  private readonly auth: string | undefined;
  private readonly attempts: number;

  constructor(
    readonly server: SparqlServer,
    private readonly options: SparqlHttpOptions,
  ) {
    this.auth = server.user === undefined ? undefined : `Basic ${Buffer.from(`${server.user}:${server.password ?? ''}`).toString('base64')}`;
    this.attempts = options.attempts ?? 5;
  }

  /** How long a request may take, unless the call says otherwise. */
  get timeoutMillis(): number {
    return this.options.timeoutMillis;
  }

  /** A query's answer as text in the media type the server chose among `accept`. */
  async query(
    query: string,
    accept: string,
    params: Record<string, string[]> = {},
    timeoutMillis = this.options.timeoutMillis,
  ): Promise<{ body: string; type: string }> {
    const form = new URLSearchParams({ query });
    for (const [name, values] of Object.entries(params)) for (const value of values) form.append(name, value);
    return this.send(
      this.server.query,
      { method: 'POST', headers: { accept, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
      timeoutMillis,
    );
  }

  /**
   * An update; `whole` when it must be applied whole or not at all (it checks what the store holds
   * before writing, e.g. a revision graph written only while empty): with fast writes, its rows are
   * then not committed one by one.
   */
  async update(update: string, whole = false): Promise<void> {
    const body = this.server.fastWrites === 'virtuoso' ? `DEFINE sql:log-enable ${whole ? 0 : 2}\n${update}` : update;
    await this.send(this.server.update ?? this.server.query, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body });
  }

  /** The triples of one graph as N-Triples (or Turtle) text, empty when there is no such graph. */
  async graph(graph: string): Promise<{ body: string; type: string }> {
    try {
      return await this.send(this.gspUrl(graph), { method: 'GET', headers: { accept: 'application/n-triples, text/turtle;q=0.9' } });
    } catch (error) {
      if (error instanceof SparqlRequestFailed && error.status === 404) return { body: '', type: 'application/n-triples' };
      throw error;
    }
  }

  /** Adds N-Triples (valid Turtle, which every Graph Store server reads) to a graph. */
  async addToGraph(graph: string, ntriples: string | Uint8Array): Promise<void> {
    await this.send(this.gspUrl(graph), {
      method: 'POST',
      headers: { 'content-type': 'text/turtle' },
      body: typeof ntriples === 'string' ? ntriples : Buffer.from(ntriples),
    });
  }

  private gspUrl(graph: string): string {
    const base = this.server.gsp;
    if (!base) throw new Error('no Graph Store endpoint configured (SPARQL_GSP_ENDPOINT)');
    return `${base}${base.includes('?') ? '&' : '?'}graph=${encodeURIComponent(graph)}`;
  }

  private async send(url: string, init: RequestInit, timeoutMillis = this.options.timeoutMillis): Promise<{ body: string; type: string }> {
    const headers = { ...(init.headers as Record<string, string>), ...(this.auth ? { authorization: this.auth } : {}) };
    for (let attempt = 1; ; attempt++) {
      let failure: SparqlRequestFailed;
      try {
        const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMillis) });
        const body = await response.text();
        if (response.ok) return { body, type: (response.headers.get('content-type') ?? '').split(';')[0]!.trim() };
        const passing = transient(response.status, body);
        failure = new SparqlRequestFailed(`${response.status} from ${url}: ${body.slice(0, 500)}`, response.status, false, passing);
        if (!passing) throw failure;
      } catch (error) {
        if (error instanceof SparqlRequestFailed) throw error;
        const name = (error as Error).name;
        // A request over its budget is not retried: the caller's budget is spent.
        if (name === 'TimeoutError' || name === 'AbortError')
          throw new SparqlRequestFailed(`no answer from ${url} within ${timeoutMillis} ms`, undefined, true);
        failure = new SparqlRequestFailed(`cannot reach ${url}: ${(error as Error).message}${causeOf(error)}`, undefined);
      }
      if (attempt >= this.attempts) throw failure;
      await new Promise((r) => setTimeout(r, 100 * 2 ** (attempt - 1)));
    }
  }
}

const causeOf = (error: unknown): string => {
  const cause = (error as { cause?: { message?: string } }).cause;
  return cause?.message ? ` (${cause.message})` : '';
};
