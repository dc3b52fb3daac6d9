import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { assetPath } from '../../src/util/assets.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/** The fenced `sh` blocks of the section of `file` that starts with `heading`, as the commands a reader pastes. */
const shBlocks = (heading: string, file = 'README.md'): string[][] => {
  const readme = readFileSync(assetPath(file), 'utf8');
  const start = readme.indexOf(`\n## ${heading}`);
  expect(start, heading).to.be.greaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]!
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.trim().startsWith('#')),
  );
};

/** Runs commands in bash (curl as the reader has it) against the test server in place of `http://localhost:8080`. */
const run = async (lines: string[], server: TestServer): Promise<string> =>
  // Asynchronous: the server answers on this process' event loop.
  (await promisify(execFile)('bash', ['-c', lines.join('\n').replace(/http:\/\/localhost:8080/g, server.url)], { encoding: 'utf8' })).stdout;

/**
 * The README's walk-through, pasted as a new user pastes it, against a started service (its address in
 * place of the README's `http://localhost:8080`), so it cannot drift from what the service does.
 */
describe('the README, run as a new user runs it', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => (server = await startServer()));
  after(() => server?.stop(true));

  /**
   * The walk-through's commands, each curl printing its status only. An event stream never ends on
   * its own: it gets two seconds; other requests a minute (a loaded machine is slow, not wrong).
   */
  const statusesOf = (walk: string[]) =>
    walk.map((line) =>
      line.startsWith('curl ') ? `curl -sS -o /dev/null -w '%{http_code}\\n' --max-time ${/\/events\b/.test(line) ? 2 : 60} ${line.slice(5)} || true` : line,
    );

  it('walks through the API: every command answers 2xx, but the resource its comment says is refused (400)', async () => {
    const [walk] = shBlocks('A walk through the API');
    const statuses = (await run(statusesOf(walk!), server)).trim().split('\n');
    expect(statuses.length).to.equal(walk!.filter((l) => l.startsWith('curl ')).length);
    expect(
      statuses.slice(0, -1).every((s) => /^2\d\d$/.test(s)),
      statuses.join(' '),
    ).to.equal(true);
    expect(statuses.at(-1)).to.equal('400');
  });

  it("answers docs/sparql.md's examples from the walk-through's resources (alice's name in each revision)", async () => {
    const sparql = shBlocks('The triple store, for SPARQL users', 'docs/sparql.md');
    const [walk] = shBlocks('A walk through the API');
    const own = await startServer();
    const out = await run(
      // The walk-through first, on a registry of its own: this test passes alone and in any order.
      [`{ ${statusesOf(walk!).join('\n')}\n} > /dev/null`, ...sparql.flat().map((line) => line.replace(/^curl /, 'curl -sS ') + '; echo')],
      own,
    ).finally(() => own.stop(true));
    const [first, second] = out
      .trim()
      .split(/\n(?=\{)/)
      .map((text) => JSON.parse(text) as { results: { bindings: Record<string, { value: string }>[] } });
    expect(first!.results.bindings.map((b) => b['name']!.value)).to.include.members(['Alice Liddell', 'Bob', 'Carol']);
    const names = second!.results.bindings.map((b) => [b['g']!.value.replace(/.*\/rev\//, 'rev '), b['name']!.value]).sort();
    expect(names).to.deep.equal([
      ['rev 1', 'Alice'],
      ['rev 2', 'Alice Liddell'],
      ['rev 3', 'Alice Liddell'],
    ]);
  });
});
