import { expect } from 'chai';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, requireChromium } from '../support/browser.js';
import type { Browser, Page } from 'playwright-core';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import { call, enc } from '../support/client.js';
import { storagesConfig, multipart } from '../support/files.js';
import { EX, schemaPayload } from '../support/schemas.js';

/** The screenshots go to `test-output/`. */
const OUTPUT = join(new URL('../../..', import.meta.url).pathname, 'test-output');
const ADA = 'http://ex.org/ada';
const GRACE = 'http://ex.org/grace';
const SCHEMA = 'http://ex.org/schemas/paper';
const PAPER = 'http://ex.org/paper';

describe('the built-in frontend in a real browser', function () {
  this.timeout(90_000);
  let provider: OidcIssuer;
  let server: TestServer;
  let browser: Browser;
  let admin: string;
  const as = (method: string, path: string, body?: unknown) => call(server.url, method, path, body, { authorization: `Bearer ${admin}` });
  const shot = async (page: Page, name: string) => {
    const path = join(OUTPUT, `frontend-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    expect(statSync(path).size).to.be.greaterThan(1000);
  };

  before(async () => {
    requireChromium();
    provider = await OidcIssuer.start();
    server = await startServer({ storages: storagesConfig().config, frontend: { enableRedirects: true, realm: 'r1', clientId: 'registry-web' } });
    const anonymous = (method: string, path: string, body: unknown) => call(server.url, method, path, body);
    expect((await anonymous('PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    admin = await provider.sign({ sub: 'admin' });
    // From now on only the admin holds anything on `/`: the anonymous caller reads nothing.
    expect(
      (await anonymous('PUT', '/v1/acls?rev=0', { acl: [{ identity: { realm: 'r1', subject: 'admin' }, permissions: MINIMUM_PERMISSIONS }] })).status,
    ).to.equal(201);
    for (const p of ['p1', 'p2']) {
      if (p === 'p1') await as('PUT', '/v1/orgs/o', {});
      expect((await as('PUT', `/v1/projects/o/${p}`, {})).status).to.equal(201);
    }
    const ctx = { '@vocab': 'http://schema.org/' };
    expect((await as('PUT', `/v1/resources/o/p1/_/${enc(GRACE)}`, { '@context': ctx, '@type': 'Person', name: 'Grace' })).status).to.equal(201);
    expect((await as('PUT', `/v1/resources/o/p1/_/${enc(ADA)}`, { '@context': ctx, '@type': 'Person', name: 'Ada' })).status).to.equal(201);
    const updated = await as('PUT', `/v1/resources/o/p1/_/${enc(ADA)}?rev=1`, {
      '@context': ctx,
      '@type': 'Person',
      name: 'Ada Lovelace',
      knows: { '@id': GRACE },
    });
    expect(updated.status, updated.text).to.equal(200);
    expect((await as('POST', `/v1/resources/o/p1/_/${enc(ADA)}/tags?rev=2`, { tag: 'v1', rev: 1 })).status).to.equal(201);
    expect((await as('PUT', `/v1/schemas/o/p1/${enc(SCHEMA)}`, schemaPayload(SCHEMA, 'Paper', { title: { datatype: 'xsd:string' } }))).status).to.equal(201);
    const paper = await as('PUT', `/v1/resources/o/p1/${enc(SCHEMA)}/${enc(PAPER)}`, {
      '@context': { ex: EX },
      '@type': 'ex:Paper',
      'ex:title': 'Notes on the analytical engine',
      'ex:author': { '@id': ADA },
    });
    expect(paper.status, paper.text).to.equal(201);
    expect((await as('PUT', `/v1/resources/o/p2/_/${enc('http://ex.org/secret')}`, { '@context': ctx, name: 'Secret' })).status).to.equal(201);
    const form = multipart([{ name: 'file', filename: 'notes.txt', type: 'text/plain', data: 'notes of Ada' }]);
    const file = await fetch(`${server.url}/v1/files/o/p1/notes`, {
      method: 'PUT',
      body: new Uint8Array(form.body),
      headers: { 'content-type': form.type, authorization: `Bearer ${admin}` },
    });
    expect(file.status).to.equal(201);
    const acl = await as('PUT', '/v1/acls/o/p1', {
      acl: [{ identity: { realm: 'r1', subject: 'alice' }, permissions: ['projects/read', 'resources/read', 'events/read', 'storages/read'] }],
    });
    expect(acl.status, acl.text).to.equal(201);
    expect((await as('PUT', '/v1/acls/o', { acl: [{ identity: { realm: 'r1', subject: 'alice' }, permissions: ['organizations/read'] }] })).status).to.equal(
      201,
    );
    provider.loginAs = { sub: 'alice', preferred_username: 'alice' };
    mkdirSync(OUTPUT, { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop(true);
    await provider?.stop();
  });

  it('a browser fetch of a resource lands on its page; alice signs in with PKCE, reads p1 and not p2, follows links, compares revisions, downloads a file and watches events', async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const started = Date.now();
    const step = (name: string) => process.env['FRONTEND_TIMING'] && console.log(`${Date.now() - started} ms ${name}`);
    const foreign: string[] = [];
    page.on(
      'request',
      (r) => void (!r.url().startsWith(server.url) && !r.url().startsWith(provider.base) && !r.url().startsWith('blob:') && foreign.push(r.url())),
    );

    // Anonymous: the API's redirect brings the browser to the item's page, which may not read it.
    const landed = await page.goto(`${server.url}/v1/resources/o/p1/_/${enc(ADA)}`);
    expect(page.url()).to.equal(`${server.url}/web/o/p1/resources/${enc(ADA)}`);
    expect(landed?.headers()['content-type']).to.match(/^text\/html/);
    await page.waitForSelector('.error');
    expect(await page.textContent('.error')).to.include('You may not read this');
    expect(await page.textContent('#who')).to.include('Anonymous');
    await shot(page, 'anonymous-refused');
    step('anonymous-refused');

    // Sign in: discovery, authorize (code + S256 challenge), token exchange with the verifier, back to the page.
    await page.click('#sign-in');
    await page.waitForSelector('#jsonld');
    expect(page.url()).to.equal(`${server.url}/web/o/p1/resources/${enc(ADA)}`);
    expect(await page.textContent('#who')).to.include('Signed in as alice');
    expect(provider.issuedTokens).to.have.length(1);
    expect(await page.evaluate(() => sessionStorage.getItem('registry-token'))).to.equal(provider.issuedTokens[0]);
    expect(await page.evaluate(() => document.cookie)).to.equal('');
    expect(await page.textContent('#jsonld')).to.include('Ada Lovelace');
    expect(await page.textContent('main table')).to.include('_createdBy');
    // Created, updated, tagged (a tag is a revision).
    expect(await page.$$eval('#revisions li', (l) => l.length)).to.equal(3);
    expect(await page.textContent('#tags')).to.include('v1');
    await page.selectOption('#compare select[name=a]', '1');
    await page.click('#compare button');
    await page.waitForSelector('#diff .add');
    const added = await page.$$eval('#diff .add', (l) => l.map((e) => e.textContent ?? ''));
    const removed = await page.$$eval('#diff .del', (l) => l.map((e) => e.textContent ?? ''));
    expect(added.join('\n')).to.include('"name": "Ada Lovelace"').and.include('"knows"');
    expect(removed.join('\n')).to.include('"name": "Ada"');
    // The diff API's view: the payload's JSON Patch and the triples; the history says who did what.
    await page.waitForSelector('#patch');
    expect(await page.textContent('#patch')).to.include('replace /name "Ada Lovelace"');
    expect(await page.textContent('#triples')).to.include('- <http://ex.org/ada>');
    expect(await page.textContent('#revisions'))
      .to.include('Created by')
      .and.include('Tagged by');
    await shot(page, 'resource');
    step('resource');

    // Follow the outgoing link to Grace; her page lists Ada as incoming.
    await page.click(`#outgoing a`);
    await page.waitForSelector('#jsonld');
    expect(page.url()).to.equal(`${server.url}/web/o/p1/resources/${enc(GRACE)}`);
    expect(await page.textContent('#jsonld')).to.include('Grace');
    expect(await page.textContent('#incoming')).to.include(ADA);
    // From Grace's page back to Ada through the incoming link; the paper that cites Ada, then its schema.
    await page.click('#incoming a');
    await page.waitForSelector('#jsonld');
    expect(page.url()).to.equal(`${server.url}/web/o/p1/resources/${enc(ADA)}`);
    await page.click(`#incoming a[href$="${enc(PAPER)}"]`);
    await page.waitForSelector('#schema-link');
    await page.click('#schema-link');
    await page.waitForSelector('#jsonld');
    expect(await page.textContent('h1')).to.equal(`Schema ${SCHEMA}`);
    expect(await page.textContent('#jsonld')).to.include('NodeShape');
    await shot(page, 'schema');
    // A tag selects its revision.
    await page.goto(`${server.url}/web/o/p1/resources/${enc(ADA)}?tag=v1`);
    await page.waitForSelector('#jsonld');
    expect(await page.textContent('main')).to.include('Revision 1 (latest is 3)');

    // Home: p1 only.
    await page.goto(`${server.url}/web/`);
    await page.waitForSelector('main h2');
    const projects = await page.$$eval('main table a', (links) => links.map((a) => a.textContent));
    expect(projects).to.include('o/p1');
    expect(projects).to.not.include('o/p2');
    await shot(page, 'home');
    step('home');
    await page.goto(`${server.url}/web/o`);
    await page.waitForSelector('main table');
    await shot(page, 'org');
    step('org');
    await page.goto(`${server.url}/web/o/p2`);
    await page.waitForSelector('.error');
    expect(await page.textContent('.error')).to.include('You may not read this');

    // The project: listing, the text filter, other kinds, the SPARQL page's link.
    await page.goto(`${server.url}/web/o/p1`);
    await page.waitForSelector('#total');
    expect(await page.textContent('main table')).to.include(ADA);
    expect(await page.getAttribute('#sparql-link', 'href')).to.equal(`${server.url}/v1/views/o/p1/graph/sparql`);
    // Beside the listing, its relationships (graph analytics): the types as nodes, the properties linking them as arrows.
    await page.waitForSelector('#relationships svg');
    expect(await page.$$eval('#relationships .node title', (t) => t.map((x) => x.textContent))).to.include.members([
      'http://schema.org/Person: 2',
      `${EX}Paper: 1`,
    ]);
    expect(await page.$$eval('#relationships .edge title', (t) => t.map((x) => x.textContent))).to.include.members([
      'knows: 1 (Person to Person)',
      'author: 1 (Paper to Person)',
    ]);
    expect(await page.getAttribute('#relationships svg', 'role')).to.equal('img');
    // Every form control has a label; the skip link is the first stop of the keyboard.
    expect(await page.$$eval('input, select', (els) => els.every((e) => (e as HTMLInputElement).labels!.length > 0))).to.equal(true);
    expect(await page.$$eval('header, nav, main, footer', (els) => els.length)).to.be.greaterThanOrEqual(4);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Skip to content');
    await page.fill('input[name=type]', 'http://schema.org/Person');
    await page.click('form.filters button');
    await page.waitForURL(/type=/);
    await page.waitForSelector('#total');
    expect(await page.$$eval('main tbody tr a', (r) => r.map((x) => x.textContent).sort())).to.deep.equal([ADA, GRACE]);
    await page.fill('input[name=type]', '');
    await page.fill('input[name=q]', 'Lovelace');
    await page.click('form.filters button');
    await page.waitForURL(/q=Lovelace/);
    await page.waitForSelector('#total');
    const rows = await page.$$eval('main section tbody tr', (r) => r.map((x) => x.textContent ?? ''));
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include(ADA);
    await shot(page, 'project-search');
    step('project-search');
    await page.goto(`${server.url}/web/o/p1?kind=storages`);
    await page.waitForSelector('#total');
    await page.click('main tbody a');
    await page.waitForSelector('#jsonld');
    expect(await page.textContent('h1')).to.match(/^Storage /);
    expect(await page.textContent('#jsonld')).to.include('DiskStorage');
    await shot(page, 'storage');
    await page.goto(`${server.url}/web/o/p1?kind=files`);
    await page.waitForSelector('#total');
    await page.click('main tbody a');
    await page.waitForSelector('#download');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).to.equal('notes.txt');
    const saved = join(OUTPUT, 'frontend-download.txt');
    await download.saveAs(saved);
    expect((await import('node:fs')).readFileSync(saved, 'utf8')).to.equal('notes of Ada');
    await shot(page, 'file');
    step('file');

    // The live event stream: history, then an event written while watching.
    await page.goto(`${server.url}/web/o/p1/events`);
    await page.waitForSelector('#events li');
    expect(await page.textContent('#stream-status')).to.include('Connected');
    expect(
      (await as('PUT', `/v1/resources/o/p1/_/${enc('http://ex.org/alan')}`, { '@context': { '@vocab': 'http://schema.org/' }, name: 'Alan' })).status,
    ).to.equal(201);
    await page.waitForFunction(() => document.querySelector('#events li')?.textContent?.includes('http://ex.org/alan'));
    await shot(page, 'events');
    step('events');
    // Signed out, the page is anonymous again; where the deployment lets anonymous read p2, it shows.
    await page.click('#session button');
    await page.waitForSelector('#sign-in');
    expect(await page.evaluate(() => sessionStorage.getItem('registry-token'))).to.equal(null);
    const open = await as('PUT', '/v1/acls/o/p2', { acl: [{ identity: { '@type': 'Anonymous' }, permissions: ['projects/read', 'resources/read'] }] });
    expect(open.status, open.text).to.equal(201);
    await page.goto(`${server.url}/web/o/p2`);
    await page.waitForSelector('#total');
    expect(await page.textContent('main tbody')).to.include('http://ex.org/secret');
    await shot(page, 'anonymous-project');
    // Everything came from the registry or the realm's provider: no CDN.
    expect(foreign).to.deep.equal([]);
    await context.close();
  });
});
