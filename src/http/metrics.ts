import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read from the running service at each scrape. */
export interface MetricSources {
  logHead(): Promise<number>;
  projected(): number;
  storeQuads(): Promise<number>;
  /** The embedded store's cap; undefined on the external store, which has none of ours. */
  maxStoreQuads: number | undefined;
  openStreams(): number;
  workerQueue(): number;
  /** Changes the fold handed on that some projection of this replica has not applied yet (held in memory). */
  heldChanges(): number;
  quarantined(): number;
  /** Each projection runner: its position in the log, failures in a row, changes it quarantined. */
  projections(): readonly { name: string; position: number; failures: number; quarantined: number }[];
  /** Entries this replica holds in memory per read model (the catalogue's indexes): 0 on the external store. */
  readModels?(): readonly { name: string; entries: number }[];
}

/**
 * The Prometheus metrics of one registry (its own prom-client registry, no global state): request
 * durations per route and status, event-log append latency, projection lag, store size against its
 * cap, open event streams, the worker pool's queue.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'registry_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly appends = new Histogram({
    name: 'registry_event_log_append_seconds',
    help: 'Latency of durable appends to the event log.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'registry_refusals_total',
    help: 'Requests or connections refused by a limit.',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  constructor(sources: MetricSources) {
    const gauge = (name: string, help: string, read: () => number | Promise<number>) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          this.set(await read());
        },
      });
    gauge('registry_projection_lag_events', 'Events in the log not yet projected by this process (log head minus applied).', async () =>
      Math.max(0, (await sources.logHead()) - sources.projected()),
    );
    gauge('registry_store_quads', 'Quads held by the triple store.', () => sources.storeQuads());
    const cap = sources.maxStoreQuads;
    if (cap !== undefined) gauge('registry_store_max_quads', 'Writes are refused from this many quads on.', () => cap);
    gauge('registry_sse_open_streams', 'Open event streams.', () => sources.openStreams());
    gauge(
      'registry_change_feed_changes',
      "Changes held in memory until every projection of this replica applied them: on the external store, as many as the store writer's lag.",
      () => sources.heldChanges(),
    );
    gauge('registry_worker_queue_tasks', 'JSON-LD and SHACL tasks waiting for a worker thread.', () => sources.workerQueue());
    const head = sources.logHead;
    const projections = sources.projections;
    const perProjection = (name: string, help: string, read: (p: ReturnType<MetricSources['projections']>[number], head: number) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['projection'],
        registers: [this.registry],
        async collect() {
          const at = await head();
          this.reset();
          for (const p of projections()) this.set({ projection: p.name }, read(p, at));
        },
      });
    perProjection('registry_projection_position', 'Log position each projection has applied.', (p) => p.position);
    perProjection('registry_projection_lag', 'Events in the log each projection has not applied yet.', (p, at) => Math.max(0, at - p.position));
    perProjection('registry_projection_failures', 'Failed attempts in a row of each projection (0: healthy; it retries with back-off).', (p) => p.failures);
    perProjection('registry_projection_quarantined', 'Events each projection gave up on after every attempt failed.', (p) => p.quarantined);
    gauge('registry_quarantined_events', 'Events whose projection failed and were skipped.', () => sources.quarantined());
    const readModels = sources.readModels;
    if (readModels)
      new Gauge({
        name: 'registry_read_model_entries',
        help: 'Entries this replica holds in memory per read model (each grows with the items; 0 on the external store, whose listings are SPARQL).',
        labelNames: ['model'],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const m of readModels()) this.set({ model: m.name }, m.entries);
        },
      });
    new Gauge({
      name: 'registry_process_memory_bytes',
      help: "The process' resident memory (rss), and the main thread's JavaScript heap (heap_used, heap_total) and memory held outside it (external, of which array_buffers); worker threads' heaps and WebAssembly memories count in rss only.",
      labelNames: ['part'],
      registers: [this.registry],
      collect() {
        const usage = process.memoryUsage();
        this.set({ part: 'rss' }, usage.rss);
        this.set({ part: 'heap_used' }, usage.heapUsed);
        this.set({ part: 'heap_total' }, usage.heapTotal);
        this.set({ part: 'external' }, usage.external);
        this.set({ part: 'array_buffers' }, usage.arrayBuffers);
      },
    });
  }

  /** Times every request by the route it matched (`unmatched` otherwise), so label values stay few. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const end = this.requests.startTimer();
      res.once('finish', () => {
        const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
        end({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    };
  }
}
