import oxigraph from 'oxigraph';

/**
 * The first line of N-Triples text a store cannot keep, undefined when it can keep them all. Oxigraph's
 * parser decides, in the lenient mode the embedded store loads with; the external store writes the
 * same lines into SPARQL Update templates, whose syntax N-Triples is a part of.
 *
 * The text is loaded into a throwaway store rather than `oxigraph.parse`d: parsing hands every quad
 * to JavaScript as term objects (~260-900 µs of CPU for a resource of ~27 triples, rising as their
 * finalizers pile up), a load keeps them inside WASM (~65-90 µs), with the same parser and errors.
 */
export const refusedLine = (ntriples: string): string | undefined => {
  const scratch = new oxigraph.Store();
  try {
    scratch.load(ntriples, { format: 'application/n-triples', lenient: true });
    return undefined;
  } catch (error) {
    const line = /line (\d+)/.exec(String((error as Error).message))?.[1];
    return ntriples.split('\n')[line === undefined ? 0 : Number(line) - 1] ?? ntriples.slice(0, 200);
  } finally {
    // Its WASM memory at once, not when a finalizer runs (the typings leave out wasm-bindgen's `free`).
    (scratch as unknown as { free(): void }).free();
  }
};
