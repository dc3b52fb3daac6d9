import { expect } from 'chai';
import { startServer } from '../support/server.js';
import { client } from '../support/client.js';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

describe('sorting by a bare field name', () => {
  it('sorts by the property the payloads mean by the name, also after a restart', async () => {
    const first = await startServer();
    let api = client(first.url);
    await api.put('/v1/orgs/terms', {});
    await api.put('/v1/projects/terms/p', {});
    const names = ['delta', 'alpha', 'charlie', 'bravo'];
    for (const [i, name] of names.entries()) {
      await api.put(`/v1/resources/terms/p/_/r${i}`, { '@context': { '@vocab': 'http://schema.org/' }, '@type': 'Person', name });
    }
    // A payload whose own context maps the name elsewhere does not change what `name` means here.
    await api.put('/v1/resources/terms/p/_/other', { '@context': { name: 'http://example.org/label' }, name: 'aaa' });
    const sorted = async (sort: string) =>
      (
        (await api.get(`/v1/resources/terms/p?type=${encodeURIComponent('http://schema.org/Person')}&sort=${sort}`)).body['_results'] as { '@id': string }[]
      ).map((r) => r['@id'].slice(r['@id'].lastIndexOf('/') + 1));
    expect(await sorted('name')).to.deep.equal(['r1', 'r3', 'r2', 'r0']);
    expect(await sorted('-name')).to.deep.equal(['r0', 'r2', 'r3', 'r1']);
    await first.stop();
    const second = await startServer({}, first.dataDir);
    api = client(second.url);
    try {
      expect(await sorted('name')).to.deep.equal(['r1', 'r3', 'r2', 'r0']);
    } finally {
      await second.stop(true);
    }
  });

  it('counts every revision once after a restart from a snapshot older than the terms, and learns them again when their file is gone', async () => {
    const first = await startServer();
    let api = client(first.url);
    await api.put('/v1/orgs/counts', {});
    await api.put('/v1/projects/counts/p', {});
    // Three payloads mean `name` as ex:name, then two as schema:name: ex:name is what `name` means.
    for (const [i, name] of ['c', 'a', 'b'].entries())
      await api.put(`/v1/resources/counts/p/_/e${i}`, { '@context': { name: 'http://example.org/name' }, name });
    await first.stop();
    const snapshot = join(first.dataDir, 'projection', 'snapshot.json');
    copyFileSync(snapshot, `${snapshot}.old`);
    const second = await startServer({}, first.dataDir);
    api = client(second.url);
    for (const [i, name] of ['z', 'y'].entries()) await api.put(`/v1/resources/counts/p/_/s${i}`, { '@context': { name: 'http://schema.org/name' }, name });
    const firstSorted = async () => ((await api.get('/v1/resources/counts/p?sort=name')).body['_results'] as { '@id': string }[])[0]!['@id'].split('/').pop();
    expect(await firstSorted()).to.equal('e1');
    await second.stop();
    // As after a crash following a snapshot: the states restart at the old one, the terms (persisted at the log's end) are ahead.
    copyFileSync(`${snapshot}.old`, snapshot);
    const third = await startServer({}, first.dataDir);
    api = client(third.url);
    try {
      // Counted twice, the two schema:name revisions replayed after the old snapshot would outweigh the three ex:name ones.
      expect(await firstSorted()).to.equal('e1');
    } finally {
      await third.stop();
    }
    const terms = join(first.dataDir, 'projection', 'terms.json');
    expect(existsSync(terms)).to.equal(true);
    rmSync(terms);
    const fourth = await startServer({}, first.dataDir);
    api = client(fourth.url);
    try {
      expect(await firstSorted()).to.equal('e1');
    } finally {
      await fourth.stop(true);
    }
  });
});
