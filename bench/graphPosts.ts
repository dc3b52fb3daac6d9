import type { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';

/**
 * Items' N-Triples posted to their graphs by the Graph Store protocol, `perRequest` items a request
 * (as the store's writer posts a batch): a bench's loading of the store, counting the triples.
 */
export class GraphPosts {
  private readonly batches = new Map<string, string[]>();
  triples = 0;

  constructor(
    private readonly client: SparqlHttpClient,
    private readonly perRequest = 200,
  ) {}

  async add(graph: string, ntriples: string): Promise<void> {
    this.triples += ntriples.split('\n').length - 1;
    const batch = this.batches.get(graph) ?? [];
    batch.push(ntriples);
    this.batches.set(graph, batch);
    if (batch.length >= this.perRequest) await this.flush();
  }

  /** Posts what is left. */
  async flush(): Promise<void> {
    for (const [graph, batch] of this.batches) {
      if (!batch.length) continue;
      await this.client.addToGraph(graph, batch.join(''));
      batch.length = 0;
    }
  }
}
