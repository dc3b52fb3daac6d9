#!/usr/bin/env node
// `npm run build` (always) and `npm start` / `npm install` (`--if-stale`: only when a source is newer
// than the build). Plain JavaScript: it runs before anything is compiled.
//
// Every build is a directory of its own, `.dist-<id>`, never written again once complete; `dist` is a
// symbolic link swapped to the new one by a rename (atomic). Node resolves the link when a process
// starts loading (`node dist/src/main.js` loads `.dist-<id>/src/main.js` and everything it imports
// from there), so a process that is loading while another start rebuilds keeps reading one complete
// build: it never sees half-written files, or one module from the old build and its import from the
// new one. One builder at a time (a lock directory); a retired build is deleted an hour after it was
// replaced, as long-running processes may still start workers from it.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const link = join(root, 'dist');
const lock = join(root, '.dist-lock');
const STAMP = '.build.json';
const RETIRED_KEEP_MS = 60 * 60 * 1000;
const LOCK_STALE_MS = 10 * 60 * 1000;
const ifStale = process.argv.includes('--if-stale');

const say = (line) => process.stderr.write(`build: ${line}\n`);

/** The folders tsconfig.json compiles ("src/**\/*.ts" → src), and the files that change what it emits. */
const inputs = () => {
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  const folders = new Set((tsconfig.include ?? []).map((glob) => glob.split('/')[0]).filter((f) => !/[*?]/.test(f)));
  return { folders: [...folders].map((f) => join(root, f)), files: [join(root, 'tsconfig.json'), join(root, 'package.json')] };
};

/**
 * The newest modification time among the inputs, folders included: deleting or renaming a file
 * changes its folder's time, not any remaining file's.
 */
const newestInput = () => {
  const { folders, files } = inputs();
  let newest = 0;
  const visit = (path) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of readdirSync(path)) if (name !== 'node_modules') visit(join(path, name));
  };
  for (const path of [...folders, ...files]) visit(path);
  return newest;
};

/** The build `dist` points at, with its stamp, or undefined when there is none (missing, a plain folder, dangling). */
const current = () => {
  try {
    if (!lstatSync(link).isSymbolicLink()) return undefined;
    const name = readlinkSync(link);
    const stamp = JSON.parse(readFileSync(join(root, name, STAMP), 'utf8'));
    return { name, startedAt: stamp.startedAt };
  } catch {
    return undefined;
  }
};

const isStale = () => {
  const build = current();
  return build === undefined || newestInput() > build.startedAt;
};

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Takes the lock directory, waiting for another builder; a lock whose process died (or too old) is broken. */
const acquire = () => {
  for (let waited = false; ;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let pid = NaN;
    let age = 0;
    try {
      pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      // Taken a moment ago, its pid not written yet: wait.
    }
    if ((Number.isInteger(pid) && pid > 0 && !alive(pid)) || age > LOCK_STALE_MS) {
      say(`breaking a stale lock (${lock}, process ${pid})`);
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!waited) say(`waiting for another build (process ${pid})`);
    waited = true;
    sleep(200);
  }
};

const release = () => rmSync(lock, { recursive: true, force: true });

/** Builds into a new `.dist-<id>`; on success points `dist` at it. Returns tsc's exit status. */
const build = () => {
  const name = `.dist-${Date.now().toString(36)}-${process.pid}`;
  const out = join(root, name);
  // The start, not the end: a source saved while tsc runs is newer than this build.
  const startedAt = Date.now();
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--outDir', name], {
    cwd: root,
    stdio: 'inherit',
  });
  const status = tsc.status ?? 1;
  if (status !== 0) {
    rmSync(out, { recursive: true, force: true });
    say(`tsc failed (exit ${status}); dist is left as it was`);
    return status;
  }
  writeFileSync(join(out, STAMP), JSON.stringify({ startedAt, pid: process.pid }) + '\n');
  const next = join(root, `.dist-link-${process.pid}`);
  rmSync(next, { force: true });
  symlinkSync(name, next);
  if (existsSync(link) && !lstatSync(link).isSymbolicLink()) {
    // A plain `dist` folder from an earlier tsc run: moved aside, deleted by the clean-up below.
    renameSync(link, join(root, `.dist-plain-${process.pid}`));
  }
  renameSync(next, link);
  return 0;
};

/** Deletes builds replaced more than an hour ago, and anything left by a build that did not finish. */
const clean = () => {
  const keep = current()?.name;
  const builds = readdirSync(root)
    .filter((name) => name.startsWith('.dist-') && name !== '.dist-lock' && name !== keep)
    .map((name) => {
      try {
        return { name, startedAt: JSON.parse(readFileSync(join(root, name, STAMP), 'utf8')).startedAt };
      } catch {
        return { name, startedAt: undefined };
      }
    });
  const complete = [...builds.filter((b) => b.startedAt !== undefined), ...(keep ? [{ name: keep, startedAt: current().startedAt }] : [])].sort(
    (a, b) => a.startedAt - b.startedAt,
  );
  for (const b of builds) {
    // Under the lock no other build is in progress: a folder without a stamp is an unfinished one.
    if (b.startedAt === undefined) rmSync(join(root, b.name), { recursive: true, force: true });
    else {
      const successor = complete[complete.findIndex((c) => c.name === b.name) + 1];
      if (successor && Date.now() - successor.startedAt > RETIRED_KEEP_MS) rmSync(join(root, b.name), { recursive: true, force: true });
    }
  }
};

if (!existsSync(join(root, 'tsconfig.json'))) {
  // An install without the sources (the image's dependency layer): nothing to compile yet.
  say('no tsconfig.json here, nothing to build');
  process.exit(0);
}
if (ifStale && !isStale()) process.exit(0);
acquire();
let status = 0;
try {
  // Another process may have built while this one waited for the lock.
  if (!ifStale || isStale()) {
    if (ifStale) say(current() ? 'sources are newer than dist, building' : 'no build yet, building');
    status = build();
  }
  clean();
} finally {
  release();
}
process.exit(status);
