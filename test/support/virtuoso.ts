import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SparqlServer } from '../../src/store/SparqlHttpClient.js';
import { freePort } from './process.js';

const run = promisify(execFile);

/** Every server started with its data directory, killed (and the directory removed) when the test process exits whatever happened. */
const children: { child: ChildProcess; dir: string }[] = [];

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
const launch = async (settings: VirtuosoSettings): Promise<Launched> => {
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
  children.push({ child, dir });
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
  // What a fresh server holds (its own graphs): a server used again is brought back to it.
  return { virtuoso: { server, dir, pid: child.pid! }, child, sqlPort, own: new Set(await graphsOf(server)) };
};

interface Launched {
  virtuoso: Virtuoso;
  child: ChildProcess;
  sqlPort: number;
  /** The graphs it held once started (Virtuoso's own). */
  own: ReadonlySet<string>;
}

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

const shared = new Map<VirtuosoSettings, { started: Promise<Launched>; users: number }>();

/**
 * One Virtuoso per settings shared by the test files using it, started by the first. When the last
 * lets go it is kept idle (not holding the process open) and the next user finds it emptied of
 * every graph written since its start: starting one takes seconds (~5 s on CI, 15-20 s on a loaded
 * machine), paid once a run instead of once a file. It is killed when the process exits.
 */
export const useVirtuoso = async (settings: VirtuosoSettings = defaultSettings()): Promise<Virtuoso> => {
  let entry = shared.get(settings);
  if (!entry) shared.set(settings, (entry = { started: launch(settings), users: 0 }));
  else if (entry.users === 0)
    entry.started = entry.started.then(
      (idle) => reused(idle, settings),
      () => launch(settings),
    );
  entry.users++;
  const { virtuoso } = await entry.started;
  return virtuoso;
};

/** An idle server used again: as fresh, or started anew if it died meanwhile. */
const reused = async (idle: Launched, settings: VirtuosoSettings): Promise<Launched> => {
  if (idle.child.exitCode !== null || idle.child.signalCode !== null) return launch(settings);
  idle.child.ref();
  // Every quad outside its own graphs in one SQL statement, each row committed alone (log_enable 3):
  // dropping thousands of graphs a hundred a request takes a minute.
  const own = [...idle.own].map((g) => `iri_to_id('${g.replace(/'/g, "''")}')`).join(', ');
  await run('isql-vt', [
    `127.0.0.1:${idle.sqlPort}`,
    'dba',
    'dba',
    `exec=log_enable(3, 1); DELETE FROM DB.DBA.RDF_QUAD${own ? ` WHERE G NOT IN (${own})` : ''};`,
  ]);
  return idle;
};

export const releaseVirtuoso = async (settings: VirtuosoSettings = defaultSettings()): Promise<void> => {
  const entry = shared.get(settings);
  if (!entry || --entry.users > 0) return;
  const { child } = await entry.started;
  // Kept for the next user, unless one came meanwhile; idle, it does not keep the process alive.
  if (entry.users === 0) child.unref();
};

/** The graphs holding triples whose name passes `filter` (a SPARQL expression on ?g), or all of them (a fresh server's only: see `reused`). */
const graphsOf = async (server: SparqlServer, filter?: string): Promise<string[]> => {
  const answer = await fetch(server.query, {
    method: 'POST',
    headers: { accept: 'application/sparql-results+json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ query: `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } ${filter ? `FILTER(${filter})` : ''} }` }).toString(),
  });
  if (!answer.ok) throw new Error(`cannot list Virtuoso's graphs: ${answer.status} ${(await answer.text()).slice(0, 300)}`);
  return ((await answer.json()) as { results: { bindings: { g: { value: string } }[] } }).results.bindings.map((b) => b.g.value);
};

/** Drops the graphs `filter` names until none is left: a SELECT may be cut at the server's ResultSetMaxRows (10,000 on the stock settings). */
const emptied = async (server: SparqlServer, filter: string): Promise<void> => {
  for (let round = 0; ; round++) {
    const graphs = await graphsOf(server, filter);
    if (!graphs.length) return;
    if (round === 100) throw new Error(`cannot clear Virtuoso: ${graphs.length} graphs left after ${round} rounds, e.g. ${graphs[0]}`);
    await dropGraphs(server, graphs);
  }
};

const dropGraphs = async (server: SparqlServer, graphs: readonly string[]): Promise<void> => {
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

/** Empties every graph a test wrote (all but Virtuoso's own). */
export const clearVirtuoso = async (server: SparqlServer, prefixes = ['urn:']): Promise<void> =>
  emptied(server, prefixes.map((p) => `STRSTARTS(STR(?g), "${p}")`).join(' || '));

process.once('exit', () => {
  for (const { child, dir } of children)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      // Its files go with it; the process may still be dying and writing, so this is best effort (they are in the tmp directory).
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        /* left in the tmp directory */
      }
    }
});

/** A replica's settings for an external store: its query, update and Graph Store endpoints. */
export const storeEnv = (server: SparqlServer): Record<string, string> => ({
  SPARQL_ENDPOINT: server.query,
  ...(server.update ? { SPARQL_UPDATE_ENDPOINT: server.update } : {}),
  ...(server.gsp ? { SPARQL_GSP_ENDPOINT: server.gsp } : {}),
  ...(server.fastWrites ? { SPARQL_FAST_WRITES: server.fastWrites } : {}),
  ...(server.textIndex ? { SPARQL_TEXT_INDEX: server.textIndex } : {}),
});
