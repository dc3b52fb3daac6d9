import oxigraph from 'oxigraph';
import type { GraphStore, Row } from './GraphStore.js';
import { iri } from '../rdf/terms.js';

const FORMATS = {
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  turtle: 'text/turtle',
} as const;

/** Bytes of WASM memory claimed at once, and how much N-Quads text may be written before the next claim. */
const RESERVE_BYTES = 128 * 1024 * 1024;
const RESERVE_EVERY = 32 * 1024 * 1024;

/**
 * The embedded store: Oxigraph compiled to WASM, in memory (persisted by the projection's own
 * files). Writes go through `load` of N-Quads text or SPARQL updates, never per-quad `add`,
 * which degrades badly as the store grows.
 *
 * Every growth of the WASM memory makes V8 run a full garbage collection, and Oxigraph's allocator
 * grows it 64 KiB at a time: left alone, a growing store triggers a full GC every few writes
 * (measured: 41% of CPU in GC at 10k resources, writes 4x slower). So the store claims memory
 * ahead of need in large blocks, which its allocator then reuses: one grow (one GC) per block.
 */
export class OxigraphGraphStore implements GraphStore {
  private readonly store = new oxigraph.Store();
  private written = RESERVE_EVERY;
  private loadedQuads = 0;

  /** Quads loaded so far (each N-Quads line), an upper bound of the growth since any count. */
  quadsLoaded(): number {
    return this.loadedQuads;
  }

  async load(nquads: string): Promise<void> {
    if (!nquads.length) return;
    this.reserve(nquads.length);
    this.store.load(nquads, { format: 'application/n-quads', lenient: true });
    for (let at = nquads.indexOf('\n'); at !== -1; at = nquads.indexOf('\n', at + 1)) this.loadedQuads++;
  }

  async update(sparql: string): Promise<void> {
    this.reserve(sparql.length);
    this.store.update(sparql);
  }

  /** Allocates (and at once frees) a large block inside the WASM memory, growing it in one step. */
  private reserve(bytes: number): void {
    this.written += bytes;
    if (this.written < RESERVE_EVERY) return;
    this.written = 0;
    try {
      // An all-zero input is copied into WASM memory, then refused by the parser at its first byte.
      this.store.load(new Uint8Array(RESERVE_BYTES), { format: 'application/n-quads' });
    } catch {
      /* expected: the block was allocated and released */
    }
  }

  async select(sparql: string): Promise<Row[]> {
    const text = this.store.query(sparql, { results_format: 'json' }) as string;
    return (JSON.parse(text) as { results: { bindings: Row[] } }).results.bindings;
  }

  async construct(sparql: string): Promise<string> {
    return this.store.query(sparql, { results_format: 'application/n-triples' }) as string;
  }

  async raw(sparql: string, format: keyof typeof FORMATS): Promise<string> {
    return this.store.query(sparql, { results_format: FORMATS[format] }) as string;
  }

  async graph(name: string): Promise<string> {
    return this.store.dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(name) });
  }

  async dropGraphs(names: string[]): Promise<void> {
    for (let i = 0; i < names.length; i += 200) {
      this.store.update(names.slice(i, i + 200).map((n) => `DROP SILENT GRAPH ${iri(n)}`).join(' ;\n'));
    }
  }

  async size(): Promise<number> {
    return this.store.size;
  }
}
