/**
 * `npm run test:isolation [-- options] [file-or-folder ...]`: every test must pass alone and in any
 * order within its file. Runs each title of each test file alone (mocha `--grep` of its full title),
 * then each file with its suites and tests shuffled (seed `SEED`, default: the time). Prints one line
 * per file and per failure, and a summary; exits 1 when anything failed.
 *
 * Options:
 * - files or folders (`dist/test/http`): only those test files (default: all of `dist/test`);
 * - `--jobs N` (or `JOBS=N`): N files at once (default 1). The titles of one file always run one
 *   after another, as they may share fixed names (a data directory, a Redis prefix) with each other;
 *   distinct files share nothing, the suite's own mocha run interleaves nothing but others' do;
 * - `--mode alone|shuffled|both` (default both);
 * - `--from file`: start at that file of the sorted list (to finish an interrupted run);
 * - `--timeout ms`: mocha's timeout for tests that set none (default 60 s: a loaded machine is slow,
 *   and this checks order, not speed).
 *
 * A title is never skipped: a test sharing its file's `before` fixture may still lean on what an
 * earlier test wrote into it, and only running it alone shows that.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';

const here = fileURLToPath(import.meta.url);
const root = join(here, '..', '..', '..');
const mochaBin = join(root, '..', 'node_modules', 'mocha', 'bin', 'mocha.js');
/** Mocha's timeout of a test or hook that sets none (`--timeout`): the suite's 20 s is too short on a loaded machine, and order, not speed, is checked here. */
let timeout = 60_000;
const MOCHA = () => ['--no-config', '--timeout', String(timeout), '--exit'];
/** A run past this is stuck (a hook that never ends, a handle `--exit` cannot close): it fails. */
const RUN_LIMIT_MILLIS = 15 * 60_000;

const testFiles = (path: string): string[] =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .flatMap((name) => testFiles(join(path, name)))
        .sort()
    : path.endsWith('.test.js')
      ? [path]
      : [];

/** A seeded order (mulberry32), so a failing order can be run again. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const shuffle = <T>(items: T[], next: () => number): void => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
};

const shuffleSuite = (suite: Mocha.Suite, next: () => number): void => {
  shuffle(suite.tests, next);
  shuffle(suite.suites, next);
  for (const child of suite.suites) shuffleSuite(child, next);
};

/** In a child process: runs one file with its tests shuffled; the exit code is the number of failures. */
const runShuffled = async (file: string, seed: number, millis: number): Promise<void> => {
  const mocha = new Mocha({ timeout: millis, reporter: 'dot' });
  mocha.addFile(file);
  await mocha.loadFilesAsync();
  shuffleSuite(mocha.suite, random(seed));
  mocha.run((failures) => process.exit(Math.min(failures, 100)));
};

const titlesOf = (file: string): string[] => {
  const listed = spawnSync(process.execPath, [mochaBin, ...MOCHA(), '--dry-run', '--reporter', 'json', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = JSON.parse(listed.stdout.slice(listed.stdout.indexOf('{'))) as { tests: { fullTitle: string }[] };
  return report.tests.map((t) => t.fullTitle);
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Run {
  status: number | null;
  output: string;
}

const run = (args: string[]): Promise<Run> =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const stuck = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MILLIS);
    child.on('close', (status) => {
      clearTimeout(stuck);
      done({ status, output });
    });
  });

interface Options {
  files: string[];
  jobs: number;
  alone: boolean;
  shuffled: boolean;
  seed: number;
}

const parseOptions = (args: string[]): Options => {
  let jobs = Number(process.env['JOBS'] ?? 1);
  let mode = 'both';
  let from: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--jobs') jobs = Number(args[++i]);
    else if (arg === '--mode') mode = args[++i]!;
    else if (arg === '--from') from = resolve(args[++i]!);
    else if (arg === '--timeout') timeout = Number(args[++i]);
    else paths.push(resolve(arg));
  }
  if (!Number.isInteger(timeout) || timeout < 1) throw new Error(`--timeout: expected milliseconds, got ${timeout}`);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs: expected a positive integer, got ${jobs}`);
  if (!['alone', 'shuffled', 'both'].includes(mode)) throw new Error(`--mode: expected alone, shuffled or both, got ${mode}`);
  const all = (paths.length > 0 ? paths : [join(root, 'test')]).flatMap(testFiles);
  const files = from === undefined ? all : all.filter((f) => f >= from);
  return { files, jobs, alone: mode !== 'shuffled', shuffled: mode !== 'alone', seed: Number(process.env['SEED'] ?? Date.now() % 1_000_000) };
};

/** The failures of one file: each title alone, then the file shuffled. */
const checkFile = async (file: string, options: Options): Promise<{ failures: string[]; runs: number }> => {
  const name = relative(root, file);
  const failures: string[] = [];
  let runs = 0;
  if (options.alone) {
    const titles = titlesOf(file);
    for (const title of new Set(titles)) {
      runs++;
      const expected = titles.filter((t) => t === title).length;
      const alone = await run([mochaBin, ...MOCHA(), '--reporter', 'dot', '--grep', `^${escape(title)}$`, file]);
      const passed = Number(/(\d+) passing/.exec(alone.output)?.[1] ?? 0);
      if (alone.status !== 0 || passed !== expected) failures.push(`alone: ${name} :: ${title}\n${alone.output.slice(-2000)}`);
    }
  }
  if (options.shuffled) {
    runs++;
    const shuffled = await run([here, '--shuffled', file, String(options.seed), String(timeout)]);
    if (shuffled.status !== 0) failures.push(`shuffled (SEED=${options.seed}): ${name}\n${shuffled.output.slice(-2000)}`);
  }
  return { failures, runs };
};

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  if (args[0] === '--shuffled') return runShuffled(args[1]!, Number(args[2]), Number(args[3]));
  const options = parseOptions(args);
  const failures: string[] = [];
  let runs = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < options.files.length) {
      const file = options.files[next++]!;
      const started = Date.now();
      const result = await checkFile(file, options);
      runs += result.runs;
      failures.push(...result.failures);
      for (const f of result.failures) process.stdout.write(`FAILED ${f}\n`);
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`${relative(root, file)}: ${result.runs} runs, ${result.failures.length} failed, ${seconds} s\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, options.files.length) }, worker));
  process.stdout.write(`\n${options.files.length} files, ${runs} runs (SEED=${options.seed}), ${failures.length} failed\n`);
  for (const f of failures) process.stdout.write(`FAILED ${f.split('\n')[0]}\n`);
  process.exit(failures.length === 0 ? 0 : 1);
};

await main();
