import oxigraph from 'oxigraph';
import type { Dataset, GraphStore, RevisionText, Row } from './GraphStore.js';
import { iri } from '../rdf/terms.js';
import { capacityGuard } from './capacityGuard.js';
import { refusedLine } from './refusedLine.js';
import { RevisionFile } from './RevisionFile.js';
import { scopeBlankNodes } from './blankNodes.js';
import { randomUUID } from 'node:crypto';
import { MemoryClaims } from './wasmMemory.js';

export interface OxigraphOptions {
  /** Where revision graphs persist (an N-Quads file); without it they live in memory only. */
  revisionFile?: string;
  /** Writes that add content are refused once the store holds this many quads. */
  maxQuads?: number;
}

/**
 * WASM memory per byte of N-Quads loaded: 58 MiB of revision graphs (10,000 resources of ~25
 * properties, 270,270 quads) took 68 MiB in one store (measured, `bench/memory.ts`'s data), with
 * room for the parser's passing buffers.
 */
const MEMORY_PER_TEXT_BYTE = 1.5;

/**
 * The embedded store: Oxigraph compiled to WASM, in memory; its revision graphs persist in an
 * append-only N-Quads file whose length is the checkpoint a snapshot records. Writes go through `load` of N-Quads text or SPARQL updates, never per-quad `add`,
 * which degrades badly as the store grows.
 *
 * Every growth of the WASM memory makes V8 run a full garbage collection, and Oxigraph's allocator
 * grows it 64 KiB at a time: left alone, a growing store triggers a full GC every few writes
 * (measured: 41% of CPU in GC at 10k resources, writes 4x slower; a bulk load at 15k quads/s
 * instead of 370k). So the store claims memory ahead of need in blocks (`MemoryClaims`), which its allocator
 * then reuses: one growth (one GC) per block.
 */
export class OxigraphGraphStore implements GraphStore {
  private readonly store = new oxigraph.Store();
  private readonly claims = new MemoryClaims(this.store, MEMORY_PER_TEXT_BYTE);
  private loadedQuads = 0;
  private readonly file: RevisionFile | undefined;
  private readonly room: () => Promise<void>;
  /**
   * Blank node labels repeat from one revision to the next (`_:b0` in each), and a restart loads
   * the revision file in bulk, where one label is one node: each graph's labels get a suffix of
   * their own (this process's, plus a count) so no two revisions share a blank node.
   */
  private readonly run = randomUUID().slice(0, 8);
  private graphs = 0;

  constructor(options: OxigraphOptions = {}) {
    this.file = options.revisionFile === undefined ? undefined : new RevisionFile(options.revisionFile);
    this.room = capacityGuard(
      () => this.size(),
      () => this.loadedQuads,
      options.maxQuads ?? Number.POSITIVE_INFINITY,
    );
  }

  async putGraph(graph: string, ntriples: string): Promise<void> {
    const quads = intoGraph(ntriples, graph, this.blankScope());
    await this.load(quads);
    this.file?.append(quads);
  }

  async putGraphs(graphs: readonly RevisionText[]): Promise<void> {
    for (const { graph, ntriples } of graphs)
      if (ntriples.trim() && this.store.match(null, null, null, oxigraph.namedNode(graph)).length === 0) await this.putGraph(graph, ntriples);
  }

  async load(nquads: string | Uint8Array): Promise<void> {
    if (!nquads.length) return;
    this.reserve(nquads.length);
    this.store.load(nquads, { format: 'application/n-quads', lenient: true });
    this.loadedQuads += countLines(nquads);
  }

  private blankScope(): string {
    return `_${this.run}_${(this.graphs++).toString(36)}`;
  }

  ensureRoom(): Promise<void> {
    return this.room();
  }

  checkpoint(durable: boolean): number {
    return this.file?.flush(durable) ?? 0;
  }

  async persist(): Promise<void> {
    await this.file?.sync();
  }

  async restore(mark: number | undefined, extraBytes: number): Promise<{ restored: true } | { restored: false; reason: string }> {
    if (!this.file) return mark ? { restored: false, reason: 'this store keeps no revision file' } : { restored: true };
    // Revisions written after the checkpoint are replayed from the log: they are cut off here.
    if (!this.file.truncate(mark ?? 0)) {
      this.file.truncate(0);
      return { restored: false, reason: `the revision file ${this.file.path} is shorter than the checkpoint (${mark} bytes)` };
    }
    try {
      this.claims.prepare(this.file.flush() + extraBytes);
      for (const chunk of this.file.chunks()) await this.load(chunk);
      return { restored: true };
    } catch (error) {
      this.store.update('CLEAR ALL');
      this.file.truncate(0);
      return { restored: false, reason: `the revision file ${this.file.path} cannot be loaded (${(error as Error).message})` };
    }
  }

  async close(): Promise<void> {
    this.file?.close();
  }

  /**
   * The N-Quads file of every revision graph (flushed on demand): where the SPARQL replica starts
   * from, so a new query worker never asks this store for its content.
   */
  get revisionQuads(): { readonly path: string; flush(): number } | undefined {
    return this.file;
  }

  async loadGraph(graph: string, ntriples: Uint8Array): Promise<void> {
    if (!ntriples.length) return;
    this.reserve(ntriples.length);
    this.store.load(ntriples, { format: 'application/n-triples', to_graph_name: oxigraph.namedNode(graph), lenient: true });
    this.loadedQuads += countLines(ntriples);
  }

  async update(sparql: string): Promise<void> {
    this.reserve(sparql.length);
    this.store.update(sparql);
  }

  private reserve(bytes: number): void {
    this.claims.grow(bytes);
  }

  refusedLine(ntriples: string): string | undefined {
    return refusedLine(ntriples);
  }

  async select(sparql: string, dataset?: Dataset): Promise<Row[]> {
    const restriction = dataset && {
      default_graph: dataset.defaultGraphs.map((g) => oxigraph.namedNode(g)),
      named_graphs: dataset.namedGraphs.map((g) => oxigraph.namedNode(g)),
    };
    const text = this.store.query(sparql, { results_format: 'json', ...restriction }) as string;
    return (JSON.parse(text) as { results: { bindings: Row[] } }).results.bindings;
  }

  async graph(name: string): Promise<string> {
    return this.store.dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(name) });
  }

  async dropGraphs(names: string[]): Promise<void> {
    for (let i = 0; i < names.length; i += 200) {
      this.store.update(
        names
          .slice(i, i + 200)
          .map((n) => `DROP SILENT GRAPH ${iri(n)}`)
          .join(' ;\n'),
      );
    }
    if (this.file && names.length) await this.file.remove(new Set(names.map(iri)));
  }

  async size(): Promise<number> {
    return this.store.size;
  }
}

const countLines = (text: string | Uint8Array): number => {
  let lines = 0;
  if (typeof text === 'string') for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  else for (let at = text.indexOf(0x0a); at !== -1; at = text.indexOf(0x0a, at + 1)) lines++;
  return lines;
};

/** Puts every triple of N-Triples text into graph `g`, its blank node labels suffixed with `scope`. */
const intoGraph = (triples: string, g: string, scope: string): string => {
  const graph = ` ${iri(g)} .`;
  let out = '';
  for (const text of triples.split('\n')) {
    const line = text.includes('_:') ? scopeBlankNodes(text, scope) : text;
    const end = line.lastIndexOf(' .');
    if (end > 0) out += `${line.slice(0, end)}${graph}\n`;
  }
  return out;
};
