import oxigraph from 'oxigraph';

/**
 * The first line of N-Triples text a store cannot keep, undefined when it can keep them all. Oxigraph's
 * parser decides, in the lenient mode the embedded store loads with; the external store writes the
 * same lines into SPARQL Update templates, whose syntax N-Triples is a part of.
 */
export const refusedLine = (ntriples: string): string | undefined => {
  try {
    oxigraph.parse(ntriples, { format: 'application/n-triples', lenient: true });
    return undefined;
  } catch (error) {
    const line = /line (\d+)/.exec(String((error as Error).message))?.[1];
    return ntriples.split('\n')[line === undefined ? 0 : Number(line) - 1] ?? ntriples.slice(0, 200);
  }
};
