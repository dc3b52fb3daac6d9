import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess } from './harness.js';

const CONTEXT = {
  '@vocab': 'http://schema.org/',
  ex: 'http://example.org/vocab/',
  knows: { '@id': 'http://schema.org/knows', '@type': '@id' },
  colleague: { '@id': 'http://schema.org/colleague', '@type': '@id' },
};

/** A resource of ~25 properties with an inline context and two links to earlier resources. */
export const payload = (i: number, base: string, version = 0): Record<string, unknown> => {
  const doc: Record<string, unknown> = {
    '@context': CONTEXT,
    '@type': ['Person', `ex:Kind${i % 5}`],
    name: `person-${String(i).padStart(7, '0')}-${(i * 7919) % 10007}`,
    knows: `${base}r${Math.max(0, i - 1)}`,
    colleague: `${base}r${Math.floor(i / 2)}`,
    version,
  };
  for (let p = 0; p < 21; p++) doc[`ex:p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};

/** Issue 2's benchmark: create, fetch, update, list, links and restart over HTTP at concurrency 8. */
export const benchResources = async (count: number): Promise<void> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-'));
  const port = 18_000 + Math.floor(Math.random() * 1000);
  let server = await startProcess(dataDir, port);
  const { url } = server;
  const base = `${url}/v1/resources/bench/main/_/`;
  const path = (i: number) => `${url}/v1/resources/bench/main/_/r${i}`;
  try {
    await json(`${url}/v1/orgs/bench`, 'PUT', {});
    await json(`${url}/v1/projects/bench/main`, 'PUT', {});
    console.log(`\nresources: ${count} resources, ~25 properties, inline context, two links each, concurrency 8`);
    await measure('create (PUT)', count, 8, async (i) => void (await json(path(i), 'PUT', payload(i, base))));
    const sample = Math.min(count, 10_000);
    const pick = (i: number) => (i * 7919) % count;
    await measure('fetch (compacted)', sample, 8, async (i) => void (await json(path(pick(i)))));
    await measure('update (rev=1)', Math.min(count, 5_000), 8, async (i) => void (await json(`${path(i)}?rev=1`, 'PUT', payload(i, base, 1))));
    const listing = `${url}/v1/resources/bench/main`;
    await measure('list first page', 200, 4, async () => void (await json(listing)));
    await measure(
      'list filtered by type',
      200,
      4,
      async (i) => void (await json(`${listing}?type=${encodeURIComponent(`http://example.org/vocab/Kind${i % 5}`)}`)),
    );
    // The first listing by a property fills its sort index (one SPARQL pass over the head revisions): measured apart.
    await measure('list sorted by payload, first use', 1, 1, async () => void (await json(`${listing}?sort=${encodeURIComponent('http://schema.org/name')}`)));
    await measure('list sorted by payload field', 200, 4, async () => void (await json(`${listing}?sort=${encodeURIComponent('http://schema.org/name')}`)));
    await measure(
      'list sorted by payload, descending',
      200,
      4,
      async (i) => void (await json(`${listing}?sort=-${encodeURIComponent('http://schema.org/name')}&from=${(i % 10) * 20}`)),
    );
    // Updates meanwhile: the index follows each write instead of being rebuilt.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing && i < Math.min(count, 5000); i++) await json(`${path(i)}?rev=2`, 'PUT', payload(i, base, 2));
    })();
    await measure(
      'list sorted by payload, while updating',
      200,
      4,
      async () => void (await json(`${listing}?sort=${encodeURIComponent('http://schema.org/name')}`)),
    );
    writing = false;
    await writer;
    await measure('list page at from=5000', 100, 4, async () => void (await json(`${listing}?from=${Math.min(5000, count - 20)}`)));
    await measure('incoming links', 1_000, 8, async (i) => void (await json(`${path(pick(i))}/incoming`)));
    await measure('outgoing links', 1_000, 8, async (i) => void (await json(`${path(pick(i))}/outgoing`)));
    await server.stop();
    server = await startProcess(dataDir, port);
    console.log(`restart with ${count} resources: ready in ${(server.readyMillis / 1000).toFixed(2)} s`);
    const version = (await json(`${url}/v1/version`)) as { store: { quads: number } };
    console.log(`store size: ${version.store.quads} quads`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
