import { createHash } from 'node:crypto';
import type { ApiMapping } from '../domain/projects/Project.js';

/**
 * A Yasr results view drawing SELECT rows as a bar chart (Chart.js): the first variable whose every
 * value is a number gives the bars, the first other variable their labels.
 */
const CHART_PLUGIN = `
  class ChartPlugin {
    constructor(yasr) {
      this.yasr = yasr;
      this.priority = 5;
      this.label = 'Chart';
    }
    columns() {
      const results = this.yasr.results;
      if (!results || !results.getVariables || !results.getBindings) return undefined;
      const vars = results.getVariables();
      const rows = results.getBindings() || [];
      if (!rows.length) return undefined;
      const numeric = vars.find((v) => rows.every((r) => r[v] && r[v].type === 'literal' && r[v].value !== '' && Number.isFinite(Number(r[v].value))));
      if (!numeric) return undefined;
      return { numeric, label: vars.find((v) => v !== numeric), rows: rows.slice(0, 500) };
    }
    canHandleResults() {
      return this.columns() !== undefined;
    }
    draw() {
      const { numeric, label, rows } = this.columns();
      const canvas = document.createElement('canvas');
      canvas.className = 'registry-chart';
      this.yasr.resultsEl.appendChild(canvas);
      this.chart = new Chart(canvas, {
        type: 'bar',
        data: {
          labels: rows.map((r, i) => (label && r[label] ? r[label].value : String(i + 1))),
          datasets: [{ label: numeric, data: rows.map((r) => Number(r[numeric].value)) }],
        },
        options: { animation: false },
      });
    }
    destroy() {
      if (this.chart) this.chart.destroy();
    }
    getIcon() {
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('viewBox', '0 0 16 16');
      svg.setAttribute('width', '14');
      svg.setAttribute('height', '14');
      for (const [x, h] of [[1, 8], [6, 13], [11, 5]]) {
        const bar = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
        bar.setAttribute('x', String(x));
        bar.setAttribute('y', String(15 - h));
        bar.setAttribute('width', '4');
        bar.setAttribute('height', String(h));
        bar.setAttribute('fill', 'currentColor');
        svg.appendChild(bar);
      }
      const icon = document.createElement('span');
      icon.appendChild(svg);
      return icon;
    }
  }`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The page runs its own files and its one inline script (named by its hash: the script holds the
 * project's prefixes, so its hash is the page's own), sends queries to its own origin, and may not
 * be framed (a page of this origin, the frontend's too, could otherwise be overlaid by any site).
 * Yasgui adds style elements of its own as it draws (its column resizer's, with generated rules),
 * so styles are 'unsafe-inline' (styles only: no script runs from them; scripts have no such way).
 */
const pageHeaders = (script: string): Record<string, string> => ({
  'Content-Security-Policy': [
    "default-src 'self'",
    `script-src 'self' ${sha256(script)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
});

/** A value inside an inline script: JSON, with `<` escaped so no text can close the script element. */
const scriptValue = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The query page a browser gets at the endpoint: Yasgui (editor with highlighting and
 * completion, results as a table, a chart or raw), loaded from this service's own files (`assets`, a path
 * relative to the page), sending its queries back to the page's own address. The editor starts with
 * the project's prefixes.
 */
export const queryPage = (project: string, prefixes: ApiMapping[], assets: string): { html: string; headers: Record<string, string> } => {
  const start = `${prefixes.map((m) => `PREFIX ${m.prefix}: <${m.namespace}>\n`).join('')}\nSELECT ?s ?p ?o WHERE {\n  ?s ?p ?o\n} LIMIT 100\n`;
  const script = `
${CHART_PLUGIN}
  Yasgui.Yasr.registerPlugin('chart', ChartPlugin);
  const endpoint = window.location.pathname;
  const yasgui = new Yasgui(document.getElementById('yasgui'), {
    requestConfig: { endpoint, method: 'POST' },
    copyEndpointOnNewTab: false,
    endpointCatalogueOptions: { getData: () => [{ endpoint }] },
    persistenceId: null,
    yasqe: { value: ${scriptValue(start)} },
    yasr: { pluginOrder: ['table', 'chart', 'response'] },
  });
  window.yasgui = yasgui;
  // Time travel: the default graph as of an instant or a tag, asked with the query (at=, tag=).
  document.getElementById('as-of').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const mode = form.get('mode');
    const value = String(form.get('value') || '').trim();
    yasgui.getTab().setEndpoint(mode && value ? endpoint + '?' + mode + '=' + encodeURIComponent(value) : endpoint);
  });
`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>SPARQL: ${escapeHtml(project)}</title>
<link rel="stylesheet" href="${assets}/yasgui.min.css">
<style>body { margin: 0; font-family: sans-serif; } header { padding: 0.5em 1em; background: #2b3e50; color: #fff; }</style>
</head>
<body>
<header>SPARQL over project <strong>${escapeHtml(project)}</strong>
<form id="as-of" style="display: inline; margin-left: 1em">
<label>Data <select name="mode"><option value="">as it is now</option><option value="at">as of an instant</option><option value="tag">as of a tag</option></select></label>
<input name="value" aria-label="Instant (2024-01-01T00:00:00Z) or tag" placeholder="2024-01-01T00:00:00Z or a tag">
<button type="submit">Use</button>
</form></header>
<div id="yasgui"></div>
<script src="${assets}/yasgui.min.js"></script>
<script src="${assets}/chart.umd.min.js"></script>
<script>${script}</script>
</body>
</html>
`;
  return { html, headers: pageHeaders(script) };
};
