import { iri } from '../../rdf/terms.js';
import { chunks, DATA_TRIPLES, dataShare, linesOf, REQUEST_BYTES, VALUES_ROWS } from '../../store/remoteSparql.js';
import { appendTo } from '../../util/appendTo.js';

/**
 * What a change leaves of an item's triples in one graph of the store's full text (its search
 * document, its listing words): the whole current set, or none (the item left the graph).
 */
export interface ItemTriples {
  graph: string;
  node: string;
  /** N-Triples of the item as it is now; undefined: it holds none. */
  triples: string | undefined;
  /** The graph cannot hold anything of the item from before (a creation): nothing to remove first. */
  fresh: boolean;
}

/**
 * A batch's items as they stand after it, in log order: each item's last triples. Fresh only when the
 * item's one write in the batch is its creation. A new lease holder writes again what the last one
 * may have written past its recorded position: the store may then hold an item's later triples when
 * its creation comes again, and only a later change removing first makes them right, so a creation
 * followed by other changes in the same batch removes first.
 */
export const lastOfEach = (items: Iterable<ItemTriples>): ItemTriples[] => {
  const out = new Map<string, ItemTriples>();
  for (const item of items) {
    const key = `${item.graph} ${item.node}`;
    out.set(key, out.has(key) ? { ...item, fresh: false } : item);
  }
  return [...out.values()];
};

/**
 * The requests that leave the items as they say, cut by size: in each, the items' former triples
 * removed set-wise, one operation per graph over `VALUES` (Virtuoso 7.2 refuses a template whose
 * graph is bound by `VALUES`, SR002), then every item's current triples in one `INSERT DATA`. A
 * request of many small operations costs Virtuoso more than linearly (remoteSparql.ts), so a
 * change is not two operations of its own. Each request inserts `DATA_TRIPLES` and `REQUEST_BYTES` at most (Virtuoso's
 * stock settings refuse more, remoteSparql.ts): an item holding more is written in parts, the first
 * removing its former triples, the others only adding. Replayed after a takeover it converges:
 * removing what is there and inserting the same triples again changes nothing, and a creation
 * written again after the item's later changes were is followed by those changes again, each
 * removing first.
 */
export const itemTriplesUpdates = (items: readonly ItemTriples[]): string[] =>
  chunks(
    items.flatMap((item) => {
      const parts = item.triples === undefined ? [] : linesOf(item.triples, DATA_TRIPLES);
      return parts.length ? parts.map((triples, part) => ({ ...item, triples, fresh: item.fresh || part > 0 })) : [item];
    }),
    (item) => dataShare(item.triples ?? '') + item.node.length / REQUEST_BYTES,
    1,
  )
    .map((run) => {
      const removed = new Map<string, string[]>();
      for (const item of run) if (!item.fresh) appendTo(removed, item.graph, iri(item.node));
      const steps: string[] = [];
      for (const [graph, nodes] of removed)
        for (const part of chunks(nodes, () => 1, Number.POSITIVE_INFINITY, VALUES_ROWS))
          steps.push(`DELETE { GRAPH ${iri(graph)} { ?s ?p ?o } } WHERE { VALUES ?s { ${part.join(' ')} } GRAPH ${iri(graph)} { ?s ?p ?o } }`);
      const inserted = run.filter((item) => item.triples);
      if (inserted.length) steps.push(`INSERT DATA {\n${inserted.map((item) => `GRAPH ${iri(item.graph)} {\n${item.triples}}`).join('\n')}\n}`);
      return steps.join(' ;\n');
    })
    .filter((update) => update !== '');

/** Bytes of N-Triples in one Graph Store request (Virtuoso took 10,880 triples, 1.2 MB, in one). */
const POST_BYTES = 2 * REQUEST_BYTES;

/**
 * The same writes with the items of the graphs `posted` selects added by the Graph Store protocol
 * (`POST` of N-Triples to a graph) instead of `INSERT DATA`: every item's former triples removed
 * first by the `updates` (as above), then each graph's new triples in a request or a few (`posts`).
 * Virtuoso parses a request's N-Triples this way without compiling them into SQL: a batch's search
 * documents went in 1.7–2.1× as fast (docs/performance.md). A post sent again adds the same
 * triples, which changes nothing.
 */
export const itemTriplesWrites = (
  items: readonly ItemTriples[],
  posted: (graph: string) => boolean,
): { updates: string[]; posts: { graph: string; ntriples: string }[] } => {
  const byGraph = new Map<string, string[]>();
  for (const item of items) if (item.triples && posted(item.graph)) appendTo(byGraph, item.graph, item.triples);
  const posts = [...byGraph].flatMap(([graph, texts]) => chunks(texts, (text) => text.length, POST_BYTES).map((run) => ({ graph, ntriples: run.join('') })));
  const updates = itemTriplesUpdates(items.map((item) => (posted(item.graph) ? { ...item, triples: undefined } : item)));
  return { updates, posts };
};
