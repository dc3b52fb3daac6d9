import { expect } from 'chai';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, requireChromium } from '../support/browser.js';
import type { Browser } from 'playwright-core';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';

/** The screenshot goes to `test-output/`. */
const OUTPUT = join(new URL('../../..', import.meta.url).pathname, 'test-output');

describe('SPARQL query page in a real browser', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let browser: Browser;
  serve((s, a) => ((server = s), (api = a)));

  before(async function () {
    requireChromium();
    await api.put('/v1/orgs/web', {});
    await api.put('/v1/projects/web/p', { apiMappings: [{ prefix: 'schema', namespace: 'http://schema.org/' }] });
    for (const [id, name] of [
      ['http://ex.org/ada', 'Ada'],
      ['http://ex.org/grace', 'Grace'],
    ])
      await api.put(`/v1/resources/web/p/_/${enc(id!)}`, { '@context': { '@vocab': 'http://schema.org/' }, name });
    await api.post(`/v1/resources/web/p/_/${enc('http://ex.org/ada')}/tags?rev=1`, { tag: 'v1', rev: 1 });
    browser = await launchChromium();
  });
  after(() => browser?.close());

  it('serves Yasgui from its own files with the project prefixes; a typed query runs and its rows show in the table', async () => {
    const page = await browser.newPage();
    // The page's Content-Security-Policy lets everything it needs run: the browser reports any refusal on the console.
    const refusals: string[] = [];
    page.on('console', (m) => void (/Content Security Policy|Refused to/i.test(m.text()) && refusals.push(m.text())));
    const foreign: string[] = [];
    page.on('request', (r) => void (!r.url().startsWith(server.url) && !r.url().startsWith('data:') && foreign.push(r.url())));
    const res = await page.goto(`${server.url}/v1/views/web/p/graph/sparql`);
    expect(res?.headers()['content-type']).to.match(/^text\/html/);
    expect(res?.headers()['content-security-policy'])
      .to.include("frame-ancestors 'none'")
      .and.match(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    await page.waitForSelector('.CodeMirror');
    const editor = await page.evaluate(() =>
      (window as unknown as { yasgui: { getTab(): { getYasqe(): { getValue(): string } } } }).yasgui.getTab().getYasqe().getValue(),
    );
    expect(editor).to.include('PREFIX schema: <http://schema.org/>');
    await page.click('.CodeMirror');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('PREFIX schema: <http://schema.org/>\nSELECT ?name WHERE { ?s schema:name ?name } ORDER BY ?name');
    await page.click('.yasqe_queryButton');
    await page.waitForSelector('.yasr table tbody tr:nth-child(2)');
    const cells = await page.$$eval('.yasr table tbody tr', (rows) => rows.map((r) => r.textContent ?? ''));
    expect(cells).to.have.length(2);
    expect(cells[0]).to.include('Ada');
    expect(cells[1]).to.include('Grace');
    mkdirSync(OUTPUT, { recursive: true });
    const shot = join(OUTPUT, 'sparql-query-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).to.be.greaterThan(1000);
    // Numbers draw as a chart: one bar per row.
    await page.click('.CodeMirror');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('PREFIX schema: <http://schema.org/>\nSELECT ?name (STRLEN(?name) AS ?length) WHERE { ?s schema:name ?name } ORDER BY ?name');
    await page.click('.yasqe_queryButton');
    await page.waitForSelector('.yasr table tbody tr:nth-child(2)');
    await page.click('.yasr .select_chart');
    await page.waitForSelector('canvas.registry-chart');
    const bars = await page.evaluate(() => {
      const chart = (window as unknown as { Chart: { getChart(c: Element): { data: { labels: string[]; datasets: { data: number[] }[] } } } }).Chart.getChart(
        document.querySelector('canvas.registry-chart')!,
      );
      return { labels: chart.data.labels, values: chart.data.datasets[0]!.data };
    });
    expect(bars).to.deep.equal({ labels: ['Ada', 'Grace'], values: [3, 5] });
    await page.screenshot({ path: join(OUTPUT, 'sparql-query-page-chart.png'), fullPage: true });
    // As of a tag: Ada's tagged revision only (Grace carries no tag).
    await page.selectOption('#as-of select[name=mode]', 'tag');
    await page.fill('#as-of input[name=value]', 'v1');
    await page.click('#as-of button');
    await page.click('.CodeMirror');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('PREFIX schema: <http://schema.org/>\nSELECT ?name WHERE { ?s schema:name ?name } ORDER BY ?name');
    await page.click('.yasqe_queryButton');
    await page.click('.yasr .select_table');
    await page.waitForFunction(() => document.querySelectorAll('.yasr table tbody tr').length === 1);
    expect(await page.$$eval('.yasr table tbody tr', (rows) => rows.map((r) => r.textContent ?? ''))).to.satisfy((rows: string[]) => rows[0]!.includes('Ada'));
    // Everything the page loaded came from the service (no CDN); the browser was told not to phone home.
    expect(foreign.filter((u) => !u.startsWith('chrome'))).to.deep.equal([]);
    expect(refusals).to.deep.equal([]);
  });
});
