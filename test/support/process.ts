import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { assetPath } from '../../src/util/assets.js';

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

export interface Proc {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The environment of `npm start` with embedded defaults: CI exports REDIS_URL for the Redis tests. */
const { REDIS_URL: _redis, REDIS_PREFIX: _prefix, CONFIG_FILE: _config, ...embedded } = process.env;

/** Every process a test started, killed after it whatever happened (a failed assertion leaves none behind). */
const started: ChildProcess[] = [];

/** `node dist/src/main.js` as `npm start` runs it, in its own process. */
export const start = (env: Record<string, string>): Proc => {
  const child = spawn(process.execPath, [assetPath('dist', 'src', 'main.js')], { env: { ...embedded, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${env['PORT']}`, output: () => out, exited };
};

export const ready = async (p: Proc): Promise<void> => {
  // No deadline of its own: a loaded machine starts slowly, and the test's timeout bounds the wait.
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`exited early: ${p.output()}`);
    try {
      if ((await fetch(`${p.url}/v1/version`)).ok) return;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Kills every process started since the last call (after each test, whatever happened). */
export const killStarted = (): void => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};

// A test that timed out goes on running after its `afterEach`/`after` killed what it had started,
// and may start a server then; the last such one in a run outlived mocha (`--exit`). Whatever is
// still running when the test process exits goes with it.
process.once('exit', killStarted);
