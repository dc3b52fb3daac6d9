import { benchEvents } from './events.js';
import { benchResources } from './resources.js';
import { benchSchemas } from './schemas.js';
import { benchWorkers } from './workers.js';
import { benchAccessOverhead } from './accessOverhead.js';
import { benchOperationsOverhead } from './operationsOverhead.js';
import { benchTracker } from './tracker.js';
import { benchSearch } from './search.js';
import { benchFiles } from './files.js';
import { benchSparql } from './sparql.js';
import { benchArchives } from './archives.js';
import { benchCostly } from './costly.js';
import { benchPhases, benchSpeed } from './speed.js';
import { benchScale } from './scale.js';
import { benchHistory } from './history.js';
import { benchBulk } from './bulk.js';
import { benchReadBarrier } from './readBarrier.js';

/**
 * `npm run bench [-- N]`: prints ops/s and p50/p99 per operation. Not part of `npm test`.
 * N (default 10,000; also BENCH_N) is the number of resources of the resource benchmark.
 */
const count = Number(process.argv[2] ?? process.env['BENCH_N'] ?? 10_000);
// BENCH_ONLY=search (or files, sparql, speed) runs that section alone.
const only = process.env['BENCH_ONLY'];
if (only === undefined) {
  await benchResources(count);
  await benchSchemas();
  await benchEvents();
  await benchWorkers(Math.min(count, 5_000));
  await benchAccessOverhead(5_000);
  await benchOperationsOverhead(5_000);
  await benchTracker(2_000);
}
// BENCH_SEARCH_N (default 10,000) resources, created twice: with and without the text index.
if (only === undefined || only === 'search') await benchSearch(Number(process.env['BENCH_SEARCH_N'] ?? 10_000));
if (only === undefined || only === 'files') await benchFiles();
if (only === undefined || only === 'sparql') await benchSparql(count);
if (only === undefined || only === 'archives') await benchArchives();
if (only === undefined || only === 'history') await benchHistory();
// Issue 19: liveness while costly searches and SPARQL queries run over BENCH_COSTLY_N (default 200) resources; memory per SPARQL worker over BENCH_COSTLY_MEMORY_N (default 5,000).
if (only === undefined || only === 'costly')
  await benchCostly(Number(process.env['BENCH_COSTLY_N'] ?? 200), Number(process.env['BENCH_COSTLY_MEMORY_N'] ?? 5_000));
// Issue 22: today against 2cd5ea8, alternated three times (BENCH_SPEED_N documents, default 2,000), then the phase table.
if (only === undefined || only === 'speed') {
  const n = Number(process.env['BENCH_SPEED_N'] ?? 2_000);
  await benchSpeed(n);
  await benchPhases(n);
}
// Issue 37: bulk import and export of BENCH_BULK_N (default 10,000) resources.
if (only === undefined || only === 'bulk') await benchBulk(Number(process.env['BENCH_BULK_N'] ?? 10_000));
// Issue 23: the external store at scale beside the embedded one (SCALE_N, default 100,000; see bench/scale.ts). Long: never part of the default run.
if (only === 'scale') await benchScale();
// Issue 34: read-your-writes on another replica under a steady write load (BARRIER_RATE, see bench/readBarrier.ts). Minutes: never part of the default run.
if (only === 'barrier') await benchReadBarrier();
