import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SparqlServer } from '../../src/store/SparqlHttpClient.js';
import { freePort } from './process.js';

const run = promisify(execFile);

/** Every server started, killed when the test process exits whatever happened. */
const children: ChildProcess[] = [];

export interface Virtuoso {
  server: SparqlServer;
  /** Where its log is, for a failing test's message. */
  dir: string;
  /** The server's process (a bench reads its memory). */
  pid: number;
}

/**
 * Debian's Virtuoso 7 (`virtuoso-opensource`, installed by `.ci/run`), on loopback on a data
 * directory and ports of its own, buffers kept small (about 16 MB of pages; ~4 s to start and
 * ~100 MB of memory on the CI machine). Its `SPARQL` user is granted `SPARQL_UPDATE`, so the plain
 * endpoints take writes; the server's own limits are set above what the tests ask (a SELECT cut at
 * `ResultSetMaxRows` would be cut silently).
 */
const launch = async (settings: VirtuosoSettings): Promise<{ virtuoso: Virtuoso; child: ChildProcess }> => {
  // Pages of 8 KiB kept in memory: small for the tests; a bench sets `VIRTUOSO_BUFFERS` (Virtuoso's
  // guide: about 2/3 of free memory), read at launch so it may set it itself.
  const buffers = Number(process.env['VIRTUOSO_BUFFERS'] ?? 2000);
  const queryMem = process.env['VIRTUOSO_QUERY_MEM'] ?? '128M';
  const dir = mkdtempSync(join(tmpdir(), 'virtuoso-'));
  const [sqlPort, httpPort] = [await freePort(), await freePort()];
  const ini = `[Database]
DatabaseFile = ${dir}/virtuoso.db
ErrorLogFile = ${dir}/virtuoso.log
LockFile = ${dir}/virtuoso.lck
TransactionFile = ${dir}/virtuoso.trx
xa_persistent_file = ${dir}/virtuoso.pxa
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = ${dir}/virtuoso-temp.db
TransactionFile = ${dir}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0
[Parameters]
ServerPort = 127.0.0.1:${sqlPort}
DisableUnixSocket = 1
MaxClientConnections = 20
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ${dir}
NumberOfBuffers = ${buffers}
MaxDirtyBuffers = ${Math.floor((buffers * 3) / 4)}
MaxQueryMem = ${queryMem}
ThreadsPerQuery = 2
; The SPARQL endpoint adds LIMIT max-results + 1 to every query: ORDER BY must sort that many (default 10,000: a 400 otherwise).
MaxSortedTopRows = 10000001
[HTTPServer]
ServerPort = 127.0.0.1:${httpPort}
ServerRoot = ${dir}
MaxClientConnections = 20
ServerThreads = 20
EnabledDavVSP = 0
HTTPProxyEnabled = 0
Charset = UTF-8
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 20
`;
  writeFileSync(join(dir, 'virtuoso.ini'), settings === 'stock' ? stockIni(dir, sqlPort, httpPort) : ini);
  const child = spawn('virtuoso-t', ['-c', join(dir, 'virtuoso.ini'), '+foreground'], { cwd: dir, stdio: 'ignore' });
  child.once('error', () => undefined);
  children.push(child);
  const base = `http://127.0.0.1:${httpPort}`;
  // Written as the compose file writes it, by Virtuoso's unlogged path (`VIRTUOSO_FAST_WRITES=off`: the logged one).
  const fast = process.env['VIRTUOSO_FAST_WRITES'] === 'off' ? {} : { fastWrites: 'virtuoso' as const };
  // Listings' text found by Virtuoso's free-text index, as the compose file sets it up (`VIRTUOSO_TEXT_INDEX=off`: word triples).
  const textIndex = process.env['VIRTUOSO_TEXT_INDEX'] === 'off' ? {} : { textIndex: 'virtuoso' as const };
  const server: SparqlServer = { query: `${base}/sparql`, update: `${base}/sparql`, gsp: `${base}/sparql-graph-crud`, ...fast, ...textIndex };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 600) throw new Error(`virtuoso-t did not start (is virtuoso-opensource installed?), see ${dir}/virtuoso.log`);
    const answered = await fetch(`${server.query}?query=${encodeURIComponent('ASK {}')}`).then(
      (r) => r.ok,
      () => false,
    );
    if (answered) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await run('isql-vt', [`127.0.0.1:${sqlPort}`, 'dba', 'dba', 'exec=grant SPARQL_UPDATE to "SPARQL";']);
  // The compose file's set-up of the free-text index, statement by statement.
  const textIndexSql = readFileSync(new URL('../../../docker/virtuoso/text-index.sql', import.meta.url), 'utf8');
  for (const statement of textIndexSql
    .replace(/^--.*$/gm, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean))
    await run('isql-vt', [`127.0.0.1:${sqlPort}`, 'dba', 'dba', `exec=${statement};`]);
  return { virtuoso: { server, dir, pid: child.pid! }, child };
};

/** Where Debian's `virtuoso-opensource` package installs its server's settings. */
export const STOCK_INI = '/etc/virtuoso-opensource-7/virtuoso.ini';

/**
 * Debian's stock `virtuoso.ini` (close to what the compose file's image runs) with only its paths
 * moved into `dir` and its ports onto loopback: every limit stays the package's (10,000 rows a
 * SELECT, 2 GB of query memory, 10,000 buffers, its SQL code limits...), which the minimal ini above
 * sets differently and so hid faults (a writer's request refused with SP031).
 */
export const stockIni = (dir: string, sqlPort: number, httpPort: number, source = readFileSync(STOCK_INI, 'utf8')): string => {
  let section = '';
  const moved = (value: string) => join(dir, value.trim().split('/').pop()!);
  return source
    .split('\n')
    .map((line) => {
      const header = /^\s*\[([^\]]+)\]/.exec(line);
      if (header) section = header[1]!;
      const setting = /^(\s*)([A-Za-z_0-9]+)(\s*=\s*)([^;]*?)(\s*(;.*)?)$/.exec(line);
      if (!setting) return line;
      const [, lead, key, eq, value, tail] = setting as unknown as [string, string, string, string, string, string];
      const set = (v: string) => `${lead}${key}${eq}${v}${tail}`;
      if ((section === 'Database' || section === 'TempDatabase') && /File$/.test(key)) return set(moved(value));
      if (section === 'Parameters' && key === 'ServerPort') return set(`127.0.0.1:${sqlPort}`);
      if (section === 'Parameters' && key === 'DirsAllowed') return set(`${value}, ${dir}`);
      if (section === 'HTTPServer' && key === 'ServerPort') return set(`127.0.0.1:${httpPort}`);
      if (section === 'HTTPServer' && key === 'ServerRoot') return set(dir);
      if (section === 'URIQA' && key === 'DefaultHost') return set(`127.0.0.1:${httpPort}`);
      return line;
    })
    .join('\n');
};

/**
 * `minimal`: the tests' own ini above; `stock`: Debian's (`stockIni`). `VIRTUOSO_INI=stock` runs
 * every suite using `useVirtuoso()` on the stock settings.
 */
export type VirtuosoSettings = 'minimal' | 'stock';
const defaultSettings = (): VirtuosoSettings => (process.env['VIRTUOSO_INI'] === 'stock' ? 'stock' : 'minimal');

const shared = new Map<VirtuosoSettings, { started: Promise<{ virtuoso: Virtuoso; child: ChildProcess }>; users: number }>();

/** One Virtuoso per settings shared by the test files using it at the same time, stopped when the last lets go. */
export const useVirtuoso = async (settings: VirtuosoSettings = defaultSettings()): Promise<Virtuoso> => {
  let entry = shared.get(settings);
  if (!entry) shared.set(settings, (entry = { started: launch(settings), users: 0 }));
  entry.users++;
  const { virtuoso } = await entry.started;
  return virtuoso;
};

export const releaseVirtuoso = async (settings: VirtuosoSettings = defaultSettings()): Promise<void> => {
  const entry = shared.get(settings);
  if (!entry || --entry.users > 0) return;
  const { started } = entry;
  shared.delete(settings);
  const { virtuoso, child } = await started;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(virtuoso.dir, { recursive: true, force: true });
};

/** Empties every graph a test wrote (all but Virtuoso's own). */
export const clearVirtuoso = async (server: SparqlServer, prefixes = ['urn:']): Promise<void> => {
  const filter = prefixes.map((p) => `STRSTARTS(STR(?g), "${p}")`).join(' || ');
  const answer = await fetch(server.query, {
    method: 'POST',
    headers: { accept: 'application/sparql-results+json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ query: `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(${filter}) }` }).toString(),
  });
  const graphs = ((await answer.json()) as { results: { bindings: { g: { value: string } }[] } }).results.bindings.map((b) => b.g.value);
  if (!graphs.length) return;
  // 100 operations a request: Virtuoso refuses a request of a few thousand (SQ200).
  for (let at = 0; at < graphs.length; at += 100) {
    const drop = await fetch(server.update!, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-update' },
      body: graphs
        .slice(at, at + 100)
        .map((g) => `DROP SILENT GRAPH <${g}>`)
        .join(' ;\n'),
    });
    if (!drop.ok) throw new Error(`cannot clear Virtuoso: ${(await drop.text()).slice(0, 300)}`);
  }
};

process.once('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A replica's settings for an external store: its query, update and Graph Store endpoints. */
export const storeEnv = (server: SparqlServer): Record<string, string> => ({
  SPARQL_ENDPOINT: server.query,
  ...(server.update ? { SPARQL_UPDATE_ENDPOINT: server.update } : {}),
  ...(server.gsp ? { SPARQL_GSP_ENDPOINT: server.gsp } : {}),
  ...(server.fastWrites ? { SPARQL_FAST_WRITES: server.fastWrites } : {}),
  ...(server.textIndex ? { SPARQL_TEXT_INDEX: server.textIndex } : {}),
});
