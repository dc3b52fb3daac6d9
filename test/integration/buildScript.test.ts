import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../../src/util/assets.js';

const SCRIPT = assetPath('scripts', 'build.mjs');

/** A project of two modules, compiled as ours is (its own node_modules is ours). */
const project = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'build-script-'));
  writeFileSync(join(dir, 'package.json'), '{"name":"p","type":"module"}\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'dist', rootDir: '.', strict: true, types: [] },
      include: ['src/**/*.ts'],
    }),
  );
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'b.ts'), "export const b = 'one';\n");
  writeFileSync(join(dir, 'src', 'main.ts'), "import { b } from './b.js';\nconsole.log(b, import.meta.url);\n");
  symlinkSync(assetPath('node_modules'), join(dir, 'node_modules'));
  return dir;
};

const build = (dir: string, ...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' });
const target = (dir: string) => readlinkSync(join(dir, 'dist'));
const builds = (dir: string) => readdirSync(dir).filter((name) => /^\.dist-[a-z0-9]+-\d+$/.test(name));
/** The build as started a minute ago, every source as saved two minutes ago: a change made now is newer. */
const settle = (dir: string) => {
  const old = new Date(Date.now() - 120_000);
  for (const path of ['package.json', 'tsconfig.json', 'src', ...readdirSync(join(dir, 'src')).map((name) => join('src', name))])
    utimesSync(join(dir, path), old, old);
  writeFileSync(join(dir, target(dir), '.build.json'), JSON.stringify({ startedAt: Date.now() - 60_000 }));
};
const stamp = (dir: string, name: string, startedAt: number) => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, '.build.json'), JSON.stringify({ startedAt }));
};

/**
 * scripts/build.mjs: `npm start` and `npm install` build only when a source is newer than the build,
 * and never under a process that is loading the build (each build a folder of its own, `dist` a link
 * swapped to it at once).
 */
describe('scripts/build.mjs (npm run build, and --if-stale before npm start and at install)', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const fresh = () => {
    const dir = project();
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('builds a fresh checkout into a folder of its own that dist links to; a process loads from that folder', () => {
    const dir = fresh();
    const first = build(dir, '--if-stale');
    expect(first.status, first.stderr).to.equal(0);
    expect(lstatSync(join(dir, 'dist')).isSymbolicLink()).to.equal(true);
    expect(target(dir)).to.match(/^\.dist-[a-z0-9]+-\d+$/);
    const run = spawnSync(process.execPath, [join(dir, 'dist', 'src', 'main.js')], { encoding: 'utf8' });
    expect(run.stdout).to.include('one');
    expect(run.stdout).to.include(`/${target(dir)}/src/main.js`);
  });

  it('does nothing when no source is newer than the build, and builds again when one is (edited, or deleted)', () => {
    const dir = fresh();
    expect(build(dir, '--if-stale').status).to.equal(0);
    const first = target(dir);
    const again = build(dir, '--if-stale');
    expect(again.status).to.equal(0);
    expect(again.stderr).to.equal('');
    expect(target(dir)).to.equal(first);

    settle(dir);
    expect(build(dir, '--if-stale').stderr).to.equal('');
    writeFileSync(join(dir, 'src', 'b.ts'), "export const b = 'two';\n");
    const edited = build(dir, '--if-stale');
    expect(edited.stderr).to.include('sources are newer than dist');
    expect(target(dir)).to.not.equal(first);
    expect(spawnSync(process.execPath, [join(dir, 'dist', 'src', 'main.js')], { encoding: 'utf8' }).stdout).to.include('two');
    // The replaced build stays for processes that started from it.
    expect(existsSync(join(dir, first, 'src', 'main.js'))).to.equal(true);

    writeFileSync(join(dir, 'src', 'extra.ts'), 'export {};\n');
    expect(build(dir, '--if-stale').status).to.equal(0);
    settle(dir);
    const second = target(dir);
    rmSync(join(dir, 'src', 'extra.ts'));
    expect(build(dir, '--if-stale').stderr).to.include('sources are newer than dist');
    expect(target(dir)).to.not.equal(second);
  });

  it('without --if-stale always builds (npm run build)', () => {
    const dir = fresh();
    expect(build(dir).status).to.equal(0);
    const first = target(dir);
    expect(build(dir).status).to.equal(0);
    expect(target(dir)).to.not.equal(first);
  });

  it('leaves dist as it was when tsc fails, exiting with its status', () => {
    const dir = fresh();
    expect(build(dir).status).to.equal(0);
    const first = target(dir);
    writeFileSync(join(dir, 'src', 'b.ts'), 'export const b: number = "not a number";\n');
    const failed = build(dir);
    expect(failed.status).to.not.equal(0);
    expect(failed.stderr).to.include('dist is left as it was');
    expect(target(dir)).to.equal(first);
    expect(builds(dir)).to.deep.equal([first]);
  });

  it('replaces a plain dist folder (an earlier tsc run) with the link', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'dist', 'src'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'src', 'main.js'), 'old');
    expect(build(dir, '--if-stale').status).to.equal(0);
    expect(lstatSync(join(dir, 'dist')).isSymbolicLink()).to.equal(true);
    expect(readdirSync(dir).filter((name) => name.startsWith('.dist-plain'))).to.deep.equal([]);
  });

  it('deletes a build an hour after it was replaced, and what an interrupted build left', () => {
    const dir = fresh();
    stamp(dir, '.dist-a-1', Date.now() - 3 * 3_600_000);
    stamp(dir, '.dist-b-1', Date.now() - 2 * 3_600_000);
    mkdirSync(join(dir, '.dist-c-1'));
    expect(build(dir).status).to.equal(0);
    // a was replaced by b two hours ago; b was replaced just now.
    expect(builds(dir).sort()).to.deep.equal(['.dist-b-1', target(dir)].sort());
  });

  it('builds once when two starts find the sources newer at the same time: the second waits, then finds it fresh', async () => {
    const dir = fresh();
    const start = () =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [SCRIPT, '--if-stale'], { cwd: dir });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (status) => resolve({ status, stderr }));
      });
    const [one, two] = await Promise.all([start(), start()]);
    expect([one.status, two.status]).to.deep.equal([0, 0]);
    expect(builds(dir)).to.have.length(1);
    expect([one.stderr, two.stderr].filter((text) => text.includes('building'))).to.have.length(1);
  });

  it('breaks the lock of a builder that died', () => {
    const dir = fresh();
    mkdirSync(join(dir, '.dist-lock'));
    // A pid no process has (above the kernel's pid_max).
    writeFileSync(join(dir, '.dist-lock', 'pid'), '99999999');
    const run = build(dir, '--if-stale');
    expect(run.status).to.equal(0);
    expect(run.stderr).to.include('breaking a stale lock');
    expect(existsSync(join(dir, '.dist-lock'))).to.equal(false);
  });

  it('builds nothing where there are no sources yet (an image installing its dependencies first)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'build-script-'));
    dirs.push(dir);
    const run = build(dir, '--if-stale');
    expect(run.status).to.equal(0);
    expect(existsSync(join(dir, 'dist'))).to.equal(false);
  });
});
