/**
 * `npm run test:isolation [-- file.test.js ...]`: every test must pass alone and in any order within
 * its file. Runs each title of each test file alone (mocha `--grep` of its full title), then each file
 * with its suites and tests shuffled (seed `SEED`, default: the time). Prints one line per failure
 * and a summary; exits 1 when anything failed.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';

const here = fileURLToPath(import.meta.url);
const root = join(here, '..', '..', '..');
const mochaBin = join(root, '..', 'node_modules', 'mocha', 'bin', 'mocha.js');
const MOCHA = ['--no-config', '--timeout', '20000', '--exit'];

const testFiles = (dir: string): string[] =>
  readdirSync(dir)
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? testFiles(join(dir, name)) : [join(dir, name)]))
    .filter((f) => f.endsWith('.test.js'))
    .sort();

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
const runShuffled = async (file: string, seed: number): Promise<void> => {
  const mocha = new Mocha({ timeout: 20_000, reporter: 'dot' });
  mocha.addFile(file);
  await mocha.loadFilesAsync();
  shuffleSuite(mocha.suite, random(seed));
  mocha.run((failures) => process.exit(Math.min(failures, 100)));
};

const titlesOf = (file: string): string[] => {
  const listed = spawnSync(process.execPath, [mochaBin, ...MOCHA, '--dry-run', '--reporter', 'json', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = JSON.parse(listed.stdout.slice(listed.stdout.indexOf('{'))) as { tests: { fullTitle: string }[] };
  return report.tests.map((t) => t.fullTitle);
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  if (args[0] === '--shuffled') return runShuffled(args[1]!, Number(args[2]));
  const files = args.length > 0 ? args : testFiles(join(root, 'test'));
  const seed = Number(process.env['SEED'] ?? Date.now() % 1_000_000);
  const failures: string[] = [];
  let runs = 0;
  for (const file of files) {
    const name = relative(root, file);
    for (const title of titlesOf(file)) {
      runs++;
      const alone = spawnSync(process.execPath, [mochaBin, ...MOCHA, '--reporter', 'dot', '--grep', `^${escape(title)}$`, file], { encoding: 'utf8' });
      const passed = /(\d+) passing/.exec(alone.stdout)?.[1];
      if (alone.status !== 0 || passed !== '1') failures.push(`alone: ${name} :: ${title}`);
    }
    runs++;
    const shuffled = spawnSync(process.execPath, [here, '--shuffled', file, String(seed)], { encoding: 'utf8' });
    if (shuffled.status !== 0) failures.push(`shuffled (SEED=${seed}): ${name}\n${shuffled.stdout.slice(-2000)}`);
    process.stdout.write(`${name}: ${failures.length} failure(s) so far\n`);
  }
  for (const f of failures) process.stdout.write(`FAILED ${f}\n`);
  process.stdout.write(`${runs} runs (each title alone, each file shuffled with SEED=${seed}), ${failures.length} failed\n`);
  process.exit(failures.length === 0 ? 0 : 1);
};

await main();
