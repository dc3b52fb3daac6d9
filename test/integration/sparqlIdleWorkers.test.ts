import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RevisionFile } from '../../src/store/RevisionFile.js';
import { SparqlReplica } from '../../src/store/SparqlReplica.js';

const P1 = 'o/p1';
const rev = (item: string, n: number) => `urn:registry:resources/${P1}/${item}/rev/${n}`;
const node = (item: string) => `urn:registry:resources/${P1}/${item}`;
const IDLE_MILLIS = 300;

/** Until `done` holds, or fails after a few seconds. */
const until = async (done: () => boolean, what: string): Promise<void> => {
  for (const started = Date.now(); !done(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() - started > 10_000) throw new Error(`not within 10 s: ${what}`);
};

describe('SPARQL query workers idle past SPARQL_WORKER_IDLE_MILLIS give their memory back', function () {
  this.timeout(60_000);
  let dir: string;
  let file: RevisionFile;
  let replica: SparqlReplica;
  const open = async (workers: number) => {
    replica = new SparqlReplica(file, { timeoutMillis: 5_000, maxResults: 1_000, workers, idleMillis: IDLE_MILLIS, log: () => undefined });
    await replica.start([]);
  };
  const write = async (item: string, n: number, name: string) => {
    const triples = `<urn:${item}> <urn:name> "${name}" .\n`;
    file.append(triples.replace(/ \.\n/g, ` <${rev(item, n)}> .\n`));
    await replica.revision(P1, rev(item, n), triples);
    await replica.current(P1, node(item), rev(item, n));
  };
  const names = async () =>
    (
      JSON.parse(
        (await replica.query({ project: P1, query: 'SELECT ?n WHERE { ?s <urn:name> ?n }', form: 'select', mediaType: 'application/sparql-results+json' }))
          .body,
      ) as { results: { bindings: { n: { value: string } }[] } }
    ).results.bindings
      .map((b) => b.n.value)
      .sort();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'idle-workers-'));
    file = new RevisionFile(join(dir, 'revisions.nq'));
  });
  afterEach(async () => {
    await replica.close();
    file.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('replaces the worker that loaded a project once idle, keeps the one that holds nothing, and the next query still answers, with writes made meanwhile', async () => {
    await open(2);
    await write('a', 1, 'a1');
    expect(await names()).to.deep.equal(['a1']);
    const before = replica.threads();
    await until(() => replica.threads().some((id, slot) => id !== before[slot]), 'a worker replaced');
    const after = replica.threads();
    // A worker holding nothing has nothing to give back: the one that never answered is kept.
    expect(
      after.filter((id, slot) => id !== before[slot]),
      'only the worker that answered',
    ).to.have.length(1);
    await write('a', 2, 'a2');
    await write('b', 1, 'b1');
    expect(await names()).to.deep.equal(['a2', 'b1']);
  });

  it('serves a query that arrives while its only worker is being replaced', async () => {
    await open(1);
    await write('a', 1, 'a1');
    expect(await names()).to.deep.equal(['a1']);
    const [before] = replica.threads();
    await until(() => replica.threads()[0] !== before, 'the worker replaced');
    // The fresh worker has not said ready yet: the query waits for it.
    expect(await names()).to.deep.equal(['a1']);
  });

  it('keeps a worker that answers queries more often than the idle time', async () => {
    await open(1);
    await write('a', 1, 'a1');
    const [before] = replica.threads();
    for (let i = 0; i < 8; i++) {
      expect(await names()).to.deep.equal(['a1']);
      await new Promise((r) => setTimeout(r, IDLE_MILLIS / 3));
    }
    expect(replica.threads()).to.deep.equal([before]);
  });
});
