import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../../src/util/assets.js';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { EX, freshProject } from '../support/schemas.js';
import { ndjson } from '../support/ndjson.js';

/** A tool of `npm run`, as a process: its exit code and what it printed. */
const run = (tool: 'bulkImport' | 'bulkExport', args: string[]): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [assetPath('dist', 'src', 'tools', `${tool}.js`), ...args], (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });

describe('npm run import / npm run export against a running registry', function () {
  this.timeout(120_000);
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let dir: string;
  serve((s, a) => ((server = s), (api = a)));
  before(() => (dir = mkdtempSync(join(tmpdir(), 'bulk-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const line = (i: number) => JSON.stringify({ '@context': { ex: EX }, '@id': `${EX}cli-${i}`, 'ex:i': i });

  it('imports a file with its progress, writes the refused lines to the errors file with their line numbers, and resumes from a line', async () => {
    const p = await freshProject(api);
    const lines = Array.from({ length: 60 }, (_, i) => line(i + 1));
    lines[9] = '{"broken';
    lines[49] = JSON.stringify({ _reserved: true });
    const file = join(dir, 'data.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    // The first 30 lines only (a run that stopped there), then the rest from line 31.
    writeFileSync(join(dir, 'head.ndjson'), `${lines.slice(0, 30).join('\n')}\n`);
    const first = await run('bulkImport', ['--url', server.url, '--project', p, '--errors', join(dir, 'errors.ndjson'), join(dir, 'head.ndjson')]);
    expect(first.code, first.stderr).to.equal(1);
    expect(first.stderr).to.match(/30\/30 lines, \d+ items\/s, 1 errors, ETA/);
    const resumed = await run('bulkImport', ['--url', server.url, '--project', p, '--from-line', '31', '--errors', join(dir, 'errors.ndjson'), file]);
    expect(resumed.code, resumed.stderr).to.equal(1);
    expect(resumed.stderr).to.match(/30\/30 lines/);
    const errors = ndjson(readFileSync(join(dir, 'errors.ndjson'), 'utf8'));
    expect(errors.map((e) => [e.line, e['@type']])).to.deep.equal([
      [10, 'MalformedRequestContentRejection'],
      [50, 'MalformedRequestContentRejection'],
    ]);
    expect((await api.get(`/v1/resources/${p}?size=1`)).body._total).to.equal(58);
    expect((await api.get(`/v1/resources/${p}/_/${enc(`${EX}cli-60`)}`)).body['ex:i']).to.equal(60);
  });

  it('exports a project into a file and imports that file into an empty project', async () => {
    const p = await freshProject(api);
    for (let i = 0; i < 5; i++) expect((await api.post(`/v1/resources/${p}`, JSON.parse(line(i)))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}cli-0`)}?rev=1`, { ...JSON.parse(line(0)), 'ex:v': 2 })).status).to.equal(200);
    const file = join(dir, 'export.ndjson');
    const exported = await run('bulkExport', ['--url', server.url, '--project', p, file]);
    expect(exported.code, exported.stderr).to.equal(0);
    expect(exported.stderr).to.match(/done: 6 lines/);
    const target = await freshProject(api);
    const imported = await run('bulkImport', ['--url', server.url, '--project', target, file]);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(existsSync(`${file}.errors.ndjson`)).to.equal(false);
    expect((await api.get(`/v1/resources/${target}/_/${enc(`${EX}cli-0`)}`)).body).to.include({ _rev: 2, 'ex:v': 2 });
    const quads = await run('bulkExport', ['--url', server.url, '--project', target, '--format', 'nquads', join(dir, 'export.nq')]);
    expect(quads.code, quads.stderr).to.equal(0);
    expect(readFileSync(join(dir, 'export.nq'), 'utf8')).to.include(`<${EX}cli-0>`);
  });

  it('says how to call it when told too little', async () => {
    const bad = await run('bulkImport', ['--project', 'o/p', 'x']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/--url is required[\s\S]*usage: npm run import/);
  });
});
