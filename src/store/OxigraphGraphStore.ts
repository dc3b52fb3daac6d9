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

/**
 * The embedded store: Oxigraph compiled to WASM, in memory (persisted by the projection's own
 * files). Writes go through `load` of N-Quads text or SPARQL updates, never per-quad `add`,
 * which degrades badly as the store grows.
 */
export class OxigraphGraphStore implements GraphStore {
  private readonly store = new oxigraph.Store();

  async load(nquads: string): Promise<void> {
    if (nquads.length) this.store.load(nquads, { format: 'application/n-quads', lenient: true });
  }

  async update(sparql: string): Promise<void> {
    this.store.update(sparql);
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
