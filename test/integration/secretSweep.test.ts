import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, enc } from '../support/client.js';
import type { Reply } from '../support/client.js';
import { upload } from '../support/files.js';
import { startRemoteDisk, startS3 } from '../support/objectStores.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { openStream } from '../support/sse.js';
import { TrackerServer } from '../support/trackerServer.js';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

/** A value no fixture, default or generated id can contain by chance. */
const unique = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/**
 * Every kind that holds a secret (a BlobStorage's secret key, a RemoteDiskStorage's credentials, the
 * tracker's user tokens and verifier, the configured sealing password) and every representation a
 * client, an operator or a thief of the data directory can see: the secret's value is in none of them.
 * The registry runs as `npm start` runs it, logging at `info`, so its log is what an operator reads.
 */
describe('Secrets: no secret value in any representation (a separate process)', function () {
  this.timeout(120_000);
  const secretKey = unique('blob-secret');
  const credentials = unique('remote-credentials');
  const password = unique('sealing-password');
  let s3: Awaited<ReturnType<typeof startS3>>;
  let remote: Awaited<ReturnType<typeof startRemoteDisk>>;
  let tracker: TrackerServer;
  let provider: OidcIssuer;
  let dir: string;
  let registry: Proc;
  const seen: { where: string; text: string }[] = [];
  let trackerSecrets: string[] = [];
  const see = (where: string, reply: Reply) => {
    expect(reply.status, `${where}: ${reply.text}`).to.be.below(500);
    seen.push({ where, text: reply.text });
  };

  before(async () => {
    [s3, remote, tracker, provider] = await Promise.all([startS3(), startRemoteDisk(credentials, ['folder-one']), TrackerServer.start(), OidcIssuer.start()]);
    dir = mkdtempSync(join(tmpdir(), 'secret-sweep-'));
    const volume = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    const configFile = join(dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        plugins: {
          jira: { enabled: true, base: tracker.base, 'consumer-key': tracker.consumerKey, 'private-key': tracker.privateKeyPem },
          storage: {
            storages: {
              password,
              disk: { 'default-volume': volume },
              blob: {
                enabled: true,
                'default-endpoint': s3.endpoint,
                'default-access-key': 'S3RVER',
                'default-secret-key': 'S3RVER',
                'default-bucket': 'bucket-one',
              },
              'remote-disk': { enabled: true, 'default-endpoint': remote.endpoint },
            },
          },
        },
      }),
    );
    const port = await freePort();
    registry = start({
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: join(dir, 'data'),
      CONFIG_FILE: configFile,
      LOG_LEVEL: 'info',
      WORKERS: '0',
    });
    await ready(registry);
    const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(registry.url, method, path, body, headers);
    expect((await api('PUT', '/v1/orgs/org', {})).status).to.equal(201);
    expect((await api('PUT', '/v1/projects/org/proj', {})).status).to.equal(201);
    const blob = { '@type': 'BlobStorage', default: false, bucket: 'bucket-new', secretKey };
    const created = await api('PUT', '/v1/storages/org/proj/s3', blob);
    see('create blob', created);
    see('update blob', await api('PUT', '/v1/storages/org/proj/s3?rev=1', { ...blob, maxFileSize: 1000 }));
    const createdRemote = await api('PUT', '/v1/storages/org/proj/remote', { '@type': 'RemoteDiskStorage', default: false, folder: 'folder-one', credentials });
    see('create remote', createdRemote);
    for (const storage of ['s3', 'remote']) {
      const file = await upload(`${registry.url}/v1/files/org/proj/f-${storage}?storage=${storage}`, 'PUT', `bytes kept on ${storage}`, 'f.txt', 'text/plain');
      expect(file.status, JSON.stringify(file.body)).to.equal(201);
      seen.push({ where: `upload to ${storage}`, text: JSON.stringify(file.body) });
    }
    expect((await api('POST', '/v1/storages/org/proj/s3/tags?rev=2', { tag: 'v1', rev: 1 })).status).to.equal(201);

    expect((await api('PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    const auth = { authorization: `Bearer ${await provider.sign({ sub: 'alice' })}` };
    const requested = await api('POST', '/v1/tracker/request-token', undefined, auth);
    expect(requested.status, requested.text).to.equal(200);
    const verifier = tracker.authorize(requested.body.value, 'alice-jira');
    see('access token', await api('POST', '/v1/tracker/access-token', { value: verifier }, auth));
    see('issue', await api('POST', '/v1/tracker/issue', { fields: { summary: 'swept' } }, auth));
    trackerSecrets = [...tracker.secrets(), verifier];
    expect(trackerSecrets.length).to.be.above(1);
    expect((await api('PUT', '/v1/resources/org/proj/_/last-of-the-sweep', { name: 'last' })).status).to.equal(201);

    const storages = ['s3', 'remote'];
    for (const id of storages)
      for (const suffix of ['', '?rev=1', '/source', '/source?rev=1', '/source?annotate=true', '?format=expanded', '/tags', '/incoming', '/outgoing'])
        see(`fetch ${id}${suffix}`, await api('GET', `/v1/storages/org/proj/${id}${suffix}`));
    see('fetch by tag', await api('GET', '/v1/storages/org/proj/s3?tag=v1'));
    for (const accept of ['application/n-triples', 'application/ld+json', 'text/vnd.graphviz'])
      see(`fetch as ${accept}`, await api('GET', '/v1/storages/org/proj/s3', undefined, { accept }));
    for (const path of [
      '/v1/storages/org/proj',
      '/v1/storages/org',
      '/v1/storages',
      '/v1/storages/org/proj?q=bucket',
      `/v1/resources/org/proj?size=100`,
      '/v1/files/org/proj',
    ])
      see(`listing ${path}`, await api('GET', path));
    for (const id of storages) see(`file ${id}`, await api('GET', `/v1/files/org/proj/f-${id}`, undefined, { accept: 'application/ld+json' }));
    const ids = [created.body['@id'], createdRemote.body['@id'], `${created.body['@id']}?rev=1`];
    for (const format of ['source', 'annotated-source', 'compacted', 'expanded', 'n-triples', 'dot']) {
      const fetched = await api('POST', '/v1/multi-fetch/resources', { format, resources: ids.map((id) => ({ id, project: 'org/proj' })) });
      see(`multi-fetch ${format}`, fetched);
      if (format === 'source') expect(fetched.body.resources.filter((r: { value?: unknown }) => r.value !== undefined)).to.have.length(3);
    }
    see('search', await api('POST', '/v1/search/query', { query: { match_all: {} }, size: 1000 }));
    const everything = 'SELECT * WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }';
    const sparql = await api('GET', `/v1/views/org/proj/graph/sparql?query=${enc(everything)}`, undefined, { accept: 'application/sparql-results+json' });
    see('sparql', sparql);
    expect(sparql.text, 'the storages are in the SPARQL dataset').to.include('bucket-new');
    for (const path of ['/v1/events', '/v1/storages/events', '/v1/storages/org/proj/events', '/v1/files/events']) {
      const stream = await openStream(`${registry.url}${path}`);
      try {
        expect(stream.status, path).to.equal(200);
        const last = path === '/v1/events' ? 'last-of-the-sweep' : path.startsWith('/v1/files') ? 'f-remote' : 'StorageTagAdded';
        const events = await stream.until((e) => e.data.includes(last));
        seen.push({ where: `events ${path}`, text: events.map((e) => e.data).join('\n') });
      } finally {
        stream.close();
      }
    }
    registry.child.kill('SIGTERM');
    await registry.exited;
  });
  after(async () => {
    killStarted();
    await Promise.all([s3.stop(), remote.stop(), tracker.stop(), provider.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses the secrets for real: the blob storage and the remote disk hold the uploaded files, the tracker made the issue', () => {
    expect(filesUnder(join(s3.directory, 'bucket-new')).length).to.be.above(0);
    expect(remote.files.size).to.equal(1);
    expect(seen.find((s) => s.where === 'issue')?.text).to.include('key');
  });

  it('shows no storage secret in any response: fetch, source, tags, listings, multi-fetch, search, SPARQL, event streams', () => {
    expect(seen.length).to.be.above(40);
    for (const { where, text } of seen) for (const secret of [secretKey, credentials, password]) expect(text, where).to.not.contain(secret);
  });

  it('shows no sealed form of a secret either, nor a field that would hold one', () => {
    const sealed = [...readFileSync(join(dir, 'data', 'journal', 'events.log'), 'utf8').matchAll(/"secret":"([^"]+)"/g)].map((m) => m[1]!);
    expect(sealed.length, 'the journal keeps the sealed secrets').to.be.at.least(3);
    for (const { where, text } of [...seen, { where: 'log', text: registry.output() }]) {
      for (const secret of sealed) expect(text, where).to.not.contain(secret);
      expect(text, where).to.not.match(/"(secret|secretKey|credentials)"\s*:/);
    }
  });

  it('shows no tracker token or verifier in any response', () => {
    for (const { where, text } of seen) for (const secret of trackerSecrets) expect(text, where).to.not.contain(secret);
  });

  it('writes no secret value in its log', () => {
    const log = registry.output();
    expect(log).to.contain('/v1/storages/org/proj/s3');
    for (const secret of [secretKey, credentials, password, ...trackerSecrets]) expect(log).to.not.contain(secret);
  });

  it('keeps no secret value in clear in its data directory (journal, snapshots, indexes, token file)', () => {
    const files = filesUnder(join(dir, 'data'));
    expect(files.length).to.be.above(2);
    const bytes = files.map((f) => ({ f, b: readFileSync(f) }));
    expect(
      bytes.some(({ b }) => b.includes('bucket-new')),
      'the journal holds the storages',
    ).to.equal(true);
    for (const secret of [secretKey, credentials, password, ...trackerSecrets])
      for (const { f, b } of bytes) expect(b.includes(secret), `${secret} in ${f}`).to.equal(false);
  });
});
