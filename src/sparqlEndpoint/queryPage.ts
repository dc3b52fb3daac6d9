import type { ApiMapping } from '../domain/projects/Project.js';

/** A value inside an inline script: JSON, with `<` escaped so no text can close the script element. */
const scriptValue = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The query page a browser gets at the endpoint: Yasgui (editor with highlighting and
 * completion, results as a table or raw), loaded from this service's own files (`assets`, a path
 * relative to the page), sending its queries back to the page's own address. The editor starts with
 * the project's prefixes.
 */
export const queryPage = (project: string, prefixes: ApiMapping[], assets: string): string => {
  const start = `${prefixes.map((m) => `PREFIX ${m.prefix}: <${m.namespace}>\n`).join('')}\nSELECT ?s ?p ?o WHERE {\n  ?s ?p ?o\n} LIMIT 100\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>SPARQL: ${escapeHtml(project)}</title>
<link rel="stylesheet" href="${assets}/yasgui.min.css">
<style>body { margin: 0; font-family: sans-serif; } header { padding: 0.5em 1em; background: #2b3e50; color: #fff; }</style>
</head>
<body>
<header>SPARQL over project <strong>${escapeHtml(project)}</strong></header>
<div id="yasgui"></div>
<script src="${assets}/yasgui.min.js"></script>
<script>
  const endpoint = window.location.pathname;
  const yasgui = new Yasgui(document.getElementById('yasgui'), {
    requestConfig: { endpoint, method: 'POST' },
    copyEndpointOnNewTab: false,
    endpointCatalogueOptions: { getData: () => [{ endpoint }] },
    persistenceId: null,
    yasqe: { value: ${scriptValue(start)} },
  });
  window.yasgui = yasgui;
</script>
</body>
</html>
`;
};
