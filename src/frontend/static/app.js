// The registry's built-in frontend: one ES module, no framework, no build step. Every page reads
// the API with the caller's token (kept in sessionStorage, sent as a bearer token, never a cookie),
// so it shows exactly what the caller may read.
const settings = JSON.parse(document.getElementById('registry-settings').textContent);
const WEB = new URL(settings.web).pathname;
const TOKEN = 'registry-token';
const LOGIN = 'registry-login';
const UNCONSTRAINED = 'https://bluebrain.github.io/nexus/schemas/unconstrained.json';
const main = document.getElementById('main');
const enc = encodeURIComponent;

/** A DOM element; children are nodes or text (never parsed as HTML). */
const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null) el.append(c instanceof Node ? c : String(c));
  return el;
};
const show = (title, ...content) => {
  document.title = `${title} · Registry`;
  main.replaceChildren(h('h1', {}, title), ...content);
};
const failure = (error) => h('p', { class: 'error', role: 'alert' }, error.message);
const webLink = (path, text) => h('a', { href: `${WEB}/${path}` }, text);
const itemHref = (org, project, id, query = '') => `${WEB}/${enc(org)}/${enc(project)}/resources/${enc(id)}${query}`;
const crumbs = (...links) => document.getElementById('crumbs').replaceChildren(...links.flatMap((l) => [' / ', l]));

const b64url = (bytes) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const token = () => sessionStorage.getItem(TOKEN);
const claims = (jwt) => {
  try {
    return JSON.parse(atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return {};
  }
};

class ApiError extends Error {
  constructor(status, body) {
    const reason = body && typeof body === 'object' ? `${body['@type'] ?? ''}: ${body.reason ?? ''}` : '';
    const meaning =
      status === 401
        ? 'Your session is no longer valid: sign in again.'
        : status === 403
          ? 'You may not read this.'
          : status === 404
            ? 'Not found.'
            : `The registry answered ${status}.`;
    super(`${meaning} ${reason}`.trim());
    this.status = status;
  }
}

/** One API call with the caller's token; JSON answers parsed. */
const api = async (path, { accept = 'application/ld+json', raw = false, signal } = {}) => {
  const headers = { accept };
  if (token()) headers.authorization = `Bearer ${token()}`;
  const res = await fetch(`${settings.api}${path}`, { headers, signal });
  if (res.status === 401) sessionStorage.removeItem(TOKEN);
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => undefined));
  return raw ? res : res.json();
};

// --- Signing in: authorization code with PKCE, in the browser -------------------------------------

const signIn = async () => {
  const discovery = await (await fetch(settings.openIdConfig)).json();
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
  sessionStorage.setItem(LOGIN, JSON.stringify({ verifier, state, back: location.pathname + location.search, tokenEndpoint: discovery.token_endpoint }));
  const target = new URL(discovery.authorization_endpoint);
  target.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.clientId,
    redirect_uri: `${settings.web}/callback`,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  location.assign(target.toString());
};

const callback = async () => {
  const params = new URLSearchParams(location.search);
  const login = JSON.parse(sessionStorage.getItem(LOGIN) ?? 'null');
  sessionStorage.removeItem(LOGIN);
  if (!login || params.get('state') !== login.state) throw new Error('This sign-in was not started here: try again.');
  if (params.get('error')) throw new Error(`The provider refused: ${params.get('error')}`);
  const res = await fetch(login.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.get('code') ?? '',
      redirect_uri: `${settings.web}/callback`,
      client_id: settings.clientId,
      code_verifier: login.verifier,
    }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || !body.access_token) throw new Error(`The provider gave no token: ${body.error ?? res.status}`);
  sessionStorage.setItem(TOKEN, body.access_token);
  location.replace(login.back.startsWith(WEB) ? login.back : `${WEB}/`);
};

const session = () => {
  const box = document.getElementById('session');
  if (token()) {
    const c = claims(token());
    box.replaceChildren(
      h('span', { id: 'who' }, `Signed in as ${c.preferred_username ?? c.sub ?? 'unknown'} `),
      h('button', { type: 'button', onclick: () => (sessionStorage.removeItem(TOKEN), location.reload()) }, 'Sign out'),
    );
  } else if (settings.openIdConfig) {
    box.replaceChildren(
      h('span', { id: 'who' }, 'Anonymous '),
      h('button', { type: 'button', id: 'sign-in', onclick: () => signIn().catch((e) => main.prepend(failure(e))) }, `Sign in (${settings.realm})`),
    );
  } else box.replaceChildren(h('span', { id: 'who' }, 'Anonymous'));
};

// --- Pages -------------------------------------------------------------------------------------------

const table = (headings, rows) =>
  h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headings.map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((cells) =>
        h(
          'tr',
          {},
          cells.map((c) => h('td', {}, c)),
        ),
      ),
    ),
  );

const home = async () => {
  const [orgs, projects] = await Promise.all([api('/v1/orgs?size=1000').catch((e) => e), api('/v1/projects?size=1000').catch((e) => e)]);
  show(
    'Organizations and projects',
    h('h2', {}, 'Organizations'),
    orgs instanceof Error
      ? failure(orgs)
      : table(
          ['Organization', 'Description'],
          orgs._results.map((o) => [webLink(enc(o._label), o._label), o.description ?? '']),
        ),
    h('h2', {}, 'Projects'),
    projects instanceof Error
      ? failure(projects)
      : projects._results.length === 0
        ? h('p', { id: 'no-projects' }, 'No project you may read.')
        : table(
            ['Project', 'Description'],
            projects._results.map((p) => [
              webLink(`${enc(p._organizationLabel)}/${enc(p._label)}`, `${p._organizationLabel}/${p._label}`),
              p.description ?? '',
            ]),
          ),
  );
};

const orgPage = async (org) => {
  crumbs(webLink(enc(org), org));
  const projects = await api(`/v1/projects/${enc(org)}?size=1000`);
  show(
    `Organization ${org}`,
    table(
      ['Project', 'Description'],
      projects._results.map((p) => [webLink(`${enc(org)}/${enc(p._label)}`, p._label), p.description ?? '']),
    ),
  );
};

const KINDS = ['resources', 'schemas', 'storages', 'files'];
const FILTERS = [
  ['q', 'Text'],
  ['type', 'Type (IRI)'],
  ['schema', 'Schema (IRI)'],
  ['createdBy', 'Created by'],
  ['updatedBy', 'Updated by'],
  ['sort', 'Sort by (field)'],
];

const SVG = 'http://www.w3.org/2000/svg';
/** An SVG element; children are nodes or text. Presentation attributes only: the CSP forbids inline styles. */
const svgEl = (tag, attrs = {}, ...children) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== undefined && c !== null) el.append(c instanceof Node ? c : String(c));
  return el;
};
const shortName = (iri) =>
  iri
    .split(/[#/]/)
    .filter((x) => x !== '')
    .pop() ?? iri;

/**
 * The project's relationships (graph analytics) as a picture: its resources' types as nodes on a
 * circle, sized by how many resources have them, and the properties linking them as arrows, as
 * thick as the number of resources using them; the same figures follow as tables.
 */
const relationshipsPicture = (graph) => {
  const nodes = graph._nodes.slice(0, 24);
  if (nodes.length === 0) return h('p', { class: 'muted', id: 'relationships' }, 'No typed resources yet.');
  const W = 480;
  const H = 460;
  const radius = nodes.length > 1 ? 150 : 0;
  const most = Math.max(...nodes.map((n) => n._count));
  const at = new Map(
    nodes.map((n, i) => {
      const angle = (2 * Math.PI * i) / nodes.length - Math.PI / 2;
      return [n['@id'], { x: W / 2 + radius * Math.cos(angle), y: H / 2 + 15 + radius * Math.sin(angle), r: 8 + 20 * Math.sqrt(n._count / most) }];
    }),
  );
  const edges = graph._edges.filter((e) => at.has(e._source) && at.has(e._target));
  const busiest = Math.max(1, ...edges.map((e) => e._count));
  const pathName = (e) => e._path.map((p) => p._name).join(' / ');
  const drawn = edges.map((e) => {
    const a = at.get(e._source);
    const b = at.get(e._target);
    const width = (1 + 5 * Math.sqrt(e._count / busiest)).toFixed(1);
    const title = svgEl('title', {}, `${pathName(e)}: ${e._count} (${shortName(e._source)} to ${shortName(e._target)})`);
    if (a === b)
      return svgEl(
        'g',
        { class: 'edge' },
        title,
        svgEl('circle', { cx: a.x, cy: a.y - a.r - 12, r: 14, fill: 'none', 'stroke-width': width }),
        svgEl('text', { x: a.x, y: a.y - a.r - 30, 'text-anchor': 'middle' }, pathName(e)),
      );
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length = Math.hypot(dx, dy) || 1;
    const end = { x: b.x - (dx / length) * (b.r + 4), y: b.y - (dy / length) * (b.r + 4) };
    return svgEl(
      'g',
      { class: 'edge' },
      title,
      svgEl('line', { x1: a.x, y1: a.y, x2: end.x, y2: end.y, 'stroke-width': width, 'marker-end': 'url(#arrow)' }),
      svgEl('text', { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 6, 'text-anchor': 'middle' }, pathName(e)),
    );
  });
  const circles = nodes.map((n) => {
    const p = at.get(n['@id']);
    return svgEl(
      'g',
      { class: 'node' },
      svgEl('title', {}, `${n['@id']}: ${n._count}`),
      svgEl('circle', { cx: p.x, cy: p.y, r: p.r }),
      svgEl('text', { x: p.x, y: p.y + p.r + 14, 'text-anchor': 'middle' }, `${n._name} (${n._count})`),
    );
  });
  const picture = svgEl(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'relationships-caption' },
    svgEl(
      'defs',
      {},
      svgEl(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 10, markerHeight: 10, markerUnits: 'userSpaceOnUse', orient: 'auto' },
        svgEl('path', { d: 'M0,0 L10,5 L0,10 z' }),
      ),
    ),
    drawn,
    circles,
  );
  return h(
    'figure',
    { id: 'relationships' },
    picture,
    h('figcaption', { id: 'relationships-caption' }, `${nodes.length} types and ${edges.length} links between them, sized by the number of resources`),
    h(
      'details',
      {},
      h('summary', {}, 'The same as tables'),
      table(
        ['Type', 'Resources'],
        nodes.map((n) => [n['@id'], n._count]),
      ),
      edges.length
        ? table(
            ['From', 'Property', 'To', 'Resources'],
            edges.map((e) => [shortName(e._source), pathName(e), shortName(e._target), e._count]),
          )
        : '',
    ),
  );
};

const projectPage = async (org, project) => {
  crumbs(webLink(enc(org), org), webLink(`${enc(org)}/${enc(project)}`, project));
  const query = new URLSearchParams(location.search);
  const kind = KINDS.includes(query.get('kind')) ? query.get('kind') : 'resources';
  const from = Number(query.get('from') ?? 0);
  const size = Number(query.get('size') ?? 20);
  const listing = new URLSearchParams({ from: String(from), size: String(size) });
  for (const [name] of FILTERS) if (query.get(name)) listing.set(name, query.get(name));
  if (query.get('deprecated')) listing.set('deprecated', query.get('deprecated'));
  // The relationships are aggregations over the whole project: the listing does not wait for them.
  const relationships = api(`/v1/graph-analytics/${enc(org)}/${enc(project)}/relationships`).catch((e) => e);
  const [meta, page] = await Promise.all([
    api(`/v1/projects/${enc(org)}/${enc(project)}`),
    api(`/v1/${kind}/${enc(org)}/${enc(project)}?${listing}`).catch((e) => e),
  ]);
  const picture = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Counting…'));
  const field = (name, label) => h('label', {}, label, h('input', { name, value: query.get(name) ?? '', type: name === 'q' ? 'search' : 'text' }));
  const form = h(
    'form',
    { class: 'filters', method: 'get', role: 'search', 'aria-label': 'Filter the listing' },
    h(
      'label',
      {},
      'Kind',
      h(
        'select',
        { name: 'kind' },
        KINDS.map((k) => h('option', { value: k, selected: k === kind }, k)),
      ),
    ),
    FILTERS.map(([name, label]) => field(name, label)),
    h(
      'label',
      {},
      'Deprecated',
      h(
        'select',
        { name: 'deprecated' },
        [
          ['', 'any'],
          ['false', 'no'],
          ['true', 'yes'],
        ].map(([v, t]) => h('option', { value: v, selected: (query.get('deprecated') ?? '') === v }, t)),
      ),
    ),
    h('label', {}, 'Page size', h('input', { name: 'size', type: 'number', min: 1, max: 1000, value: size })),
    h('button', { type: 'submit' }, 'Apply'),
  );
  const more = (delta) => {
    const next = new URLSearchParams(query);
    next.set('from', String(Math.max(0, from + delta)));
    return `?${next}`;
  };
  const listingOf = (page) =>
    page instanceof Error
      ? failure(page)
      : h(
          'div',
          {},
          h('p', { id: 'total' }, `${page._total} in all`, page._maxScore !== undefined ? ' (by relevance)' : ''),
          table(
            ['@id', 'Type', 'Revision', 'Deprecated', 'Updated'],
            page._results.map((r) => [
              h('a', { href: itemHref(org, project, r['@id']) }, r['@id']),
              [].concat(r['@type'] ?? []).join(', '),
              r._rev,
              r._deprecated ? 'yes' : 'no',
              r._updatedAt ?? '',
            ]),
          ),
          h(
            'p',
            {},
            from > 0 ? h('a', { href: more(-size) }, 'Previous page') : '',
            ' ',
            from + size < page._total ? h('a', { href: more(size), id: 'next-page' }, 'Next page') : '',
          ),
        );
  show(
    `Project ${org}/${project}`,
    h('p', { class: 'muted' }, meta.description ?? '', ` Base ${meta.base ?? ''} · vocabulary ${meta.vocab ?? ''}`),
    h(
      'nav',
      { 'aria-label': 'Project tools' },
      h(
        'ul',
        {},
        h('li', {}, h('a', { href: `${settings.api}/v1/views/${enc(org)}/${enc(project)}/graph/sparql`, id: 'sparql-link' }, 'SPARQL query page')),
        h('li', {}, webLink(`${enc(org)}/${enc(project)}/events`, 'Live event stream')),
      ),
    ),
    h(
      'div',
      { class: 'project-layout' },
      h(
        'section',
        { 'aria-labelledby': 'listing-heading' },
        h('h2', { id: 'listing-heading' }, `${kind[0].toUpperCase()}${kind.slice(1)}`),
        form,
        listingOf(page),
      ),
      h('aside', { 'aria-labelledby': 'relationships-heading' }, h('h2', { id: 'relationships-heading' }, 'Relationships'), picture),
    ),
  );
  const graph = await relationships;
  picture.replaceChildren(graph instanceof Error ? failure(graph) : relationshipsPicture(graph));
};

/** Where an item of each kind is read, by its id in the project. */
const itemPaths = (org, project, id) => ({
  resources: `/v1/resources/${enc(org)}/${enc(project)}/_/${enc(id)}`,
  schemas: `/v1/schemas/${enc(org)}/${enc(project)}/${enc(id)}`,
  storages: `/v1/storages/${enc(org)}/${enc(project)}/${enc(id)}`,
  files: `/v1/files/${enc(org)}/${enc(project)}/${enc(id)}`,
});

/** The first kind that holds the id: a 404, or a 403 on a kind the caller may not read, tries the next. */
const findItem = async (org, project, id, selector) => {
  let refused;
  for (const [kind, path] of Object.entries(itemPaths(org, project, id))) {
    try {
      return { kind, path, body: await api(`${path}${selector}`) };
    } catch (error) {
      if (error.status !== 404 && error.status !== 403) throw error;
      if (error.status === 403) refused ??= error;
    }
  }
  throw refused ?? new ApiError(404);
};

/** Lines of `a` and `b` as a longest-common-subsequence diff. */
const diffLines = (a, b) => {
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) out.push([' ', a[i++], j++]);
    else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) out.push(['+', b[j++]]);
    else out.push(['-', a[i++]]);
  }
  return out;
};
const pretty = (body) => JSON.stringify(body, null, 2);

const linkRows = (org, project, page) =>
  page._results.length === 0
    ? h('p', { class: 'muted' }, 'None.')
    : h(
        'ul',
        {},
        page._results.map((l) =>
          h(
            'li',
            {},
            l._rev !== undefined ? h('a', { href: itemHref(org, project, l['@id']) }, l['@id']) : h('span', {}, l['@id'], ' (external)'),
            l.paths ? h('span', { class: 'muted' }, ` via ${[].concat(l.paths).join(', ')}`) : '',
          ),
        ),
      );

const itemPage = async (org, project, id) => {
  crumbs(webLink(enc(org), org), webLink(`${enc(org)}/${enc(project)}`, project), h('span', {}, id));
  const query = new URLSearchParams(location.search);
  const selector = query.get('rev') ? `?rev=${enc(query.get('rev'))}` : query.get('tag') ? `?tag=${enc(query.get('tag'))}` : '';
  const { kind, path, body } = await findItem(org, project, id, selector);
  const latest = selector ? await api(path) : body;
  const [tags, incoming, outgoing] = await Promise.all(['/tags', '/incoming', '/outgoing'].map((s) => api(`${path}${s}`).catch((e) => e)));
  // Who did what, when: one entry per revision (resources, schemas, files).
  const history = await api(`/v1/history/resources/${enc(org)}/${enc(project)}/${enc(id)}`).catch(() => undefined);
  const entryOf = new Map((history?._results ?? []).map((e) => [e.rev, e]));
  const who = (subject) => (subject?.['@type'] === 'User' ? `${subject.subject} (${subject.realm})` : 'anonymous');
  const hasDiff = kind === 'resources' || kind === 'schemas';
  const metadata = Object.entries(body).filter(([k]) => k.startsWith('_'));
  const revs = Array.from({ length: latest._rev }, (_, i) => latest._rev - i);
  const a = Number(query.get('a') ?? Math.max(1, latest._rev - 1));
  const b = Number(query.get('b') ?? latest._rev);
  const revSelect = (name, value, label) =>
    h(
      'label',
      {},
      label,
      ' ',
      h(
        'select',
        { name },
        revs.map((r) => h('option', { value: r, selected: r === value }, r)),
      ),
    );
  const diff = h('div', { class: 'diff', id: 'diff', 'aria-live': 'polite' });
  const compare = async (event) => {
    event?.preventDefault();
    const form = new FormData(document.getElementById('compare'));
    const [left, right, changes] = await Promise.all([
      api(`${path}?rev=${form.get('a')}`),
      api(`${path}?rev=${form.get('b')}`),
      hasDiff ? api(`${path}/diff?from=${enc(form.get('a'))}&to=${enc(form.get('b'))}`, { accept: 'application/json' }) : undefined,
    ]);
    const line = (cls, text) => h('span', { class: cls }, text);
    diff.replaceChildren(
      h(
        'pre',
        { 'aria-label': `Changes from revision ${form.get('a')} to ${form.get('b')}` },
        diffLines(pretty(left).split('\n'), pretty(right).split('\n')).map(([op, line]) =>
          h('span', { class: op === '+' ? 'add' : op === '-' ? 'del' : '' }, `${op} ${line}`),
        ),
      ),
      ...(changes
        ? [
            h('h3', {}, 'Changes to the payload (JSON Patch)'),
            changes.source.length === 0
              ? h('p', { class: 'muted' }, 'None.')
              : h(
                  'pre',
                  { id: 'patch', 'aria-label': 'JSON Patch of the payload' },
                  changes.source.map((o) => line(o.op === 'remove' ? 'del' : 'add', `${o.op} ${o.path}${'value' in o ? ` ${JSON.stringify(o.value)}` : ''}`)),
                ),
            h('h3', {}, 'Triples added and removed'),
            changes.added.length + changes.removed.length === 0
              ? h('p', { class: 'muted' }, 'None.')
              : h(
                  'pre',
                  { id: 'triples', 'aria-label': 'Triples removed and added' },
                  changes.removed.map((t) => line('del', `- ${t}`)),
                  changes.added.map((t) => line('add', `+ ${t}`)),
                ),
          ]
        : []),
    );
  };
  const schema = body._constrainedBy;
  show(
    `${kind === 'resources' ? 'Resource' : kind[0].toUpperCase() + kind.slice(1, -1)} ${id}`,
    h(
      'p',
      { class: 'muted' },
      selector ? `Revision ${body._rev} (latest is ${latest._rev}). ` : `Latest revision, ${body._rev}. `,
      body._deprecated ? 'Deprecated.' : '',
    ),
    kind === 'files'
      ? h(
          'p',
          {},
          h(
            'button',
            { type: 'button', id: 'download', onclick: () => download(path + selector, body._filename ?? 'file').catch((e) => main.prepend(failure(e))) },
            `Download ${body._filename ?? ''}`,
          ),
        )
      : '',
    schema && schema !== UNCONSTRAINED
      ? h('p', {}, 'Schema: ', h('a', { href: itemHref(org, project, schema), id: 'schema-link' }, schema))
      : h('p', {}, 'Schema: none (unconstrained)'),
    h('h2', {}, 'Metadata'),
    table(
      ['Field', 'Value'],
      metadata.map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
    ),
    h('h2', {}, 'Compacted JSON-LD'),
    h('pre', { id: 'jsonld', tabindex: 0, 'aria-label': 'The item as compacted JSON-LD' }, pretty(body)),
    h('h2', {}, 'Revisions'),
    h(
      'ul',
      { id: 'revisions' },
      revs.map((r) => {
        const e = entryOf.get(r);
        return h(
          'li',
          {},
          h('a', { href: `?rev=${r}` }, `Revision ${r}`),
          e ? h('span', { class: 'muted' }, ` — ${e.action.join(', ')} by ${who(e.subject)}, ${e.instant}`) : '',
        );
      }),
    ),
    latest._rev > 1
      ? h(
          'form',
          { id: 'compare', onsubmit: compare },
          revSelect('a', a, 'From'),
          ' ',
          revSelect('b', b, 'to'),
          ' ',
          h('button', { type: 'submit' }, 'Compare'),
        )
      : '',
    diff,
    h('h2', {}, 'Tags'),
    tags instanceof Error
      ? failure(tags)
      : tags.tags.length === 0
        ? h('p', { class: 'muted' }, 'None.')
        : h(
            'ul',
            { id: 'tags' },
            tags.tags.map((t) => h('li', {}, h('a', { href: `?tag=${enc(t.tag)}` }, t.tag), ` → revision ${t.rev}`)),
          ),
    h('h2', {}, 'Outgoing links'),
    outgoing instanceof Error ? failure(outgoing) : h('div', { id: 'outgoing' }, linkRows(org, project, outgoing)),
    h('h2', {}, 'Incoming links'),
    incoming instanceof Error ? failure(incoming) : h('div', { id: 'incoming' }, linkRows(org, project, incoming)),
  );
  if (query.get('a') || query.get('b')) await compare();
};

/** A file's bytes, fetched with the token (a plain link would carry none), saved under its name. */
const download = async (path, filename) => {
  const res = await api(path, { accept: '*/*', raw: true });
  const url = URL.createObjectURL(await res.blob());
  const link = h('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

/** The project's resource events as they happen: an SSE stream read with fetch, so the token can travel. */
const eventsPage = async (org, project) => {
  crumbs(webLink(enc(org), org), webLink(`${enc(org)}/${enc(project)}`, project), h('span', {}, 'events'));
  const status = h('p', { id: 'stream-status', role: 'status' }, 'Connecting…');
  const list = h('ol', { id: 'events', reversed: true, 'aria-live': 'polite' });
  show(`Events of ${org}/${project}`, status, list);
  const res = await api(`/v1/resources/${enc(org)}/${enc(project)}/events`, { accept: 'text/event-stream', raw: true });
  status.textContent = 'Connected: new events appear at the top.';
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((l) => !l.startsWith(':') && l.includes(':'))
          .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
      );
      if (!fields.data) continue;
      const event = JSON.parse(fields.data);
      const id = event._resourceId;
      list.prepend(
        h(
          'li',
          {},
          `#${fields.id ?? ''} ${fields.event ?? event['@type']} `,
          id ? h('a', { href: itemHref(org, project, id) }, id) : '',
          ` rev ${event._rev ?? ''} at ${event._instant ?? ''}`,
        ),
      );
    }
  }
  status.textContent = 'The stream ended.';
};

const route = async () => {
  session();
  const rest = location.pathname.startsWith(WEB) ? location.pathname.slice(WEB.length).replace(/^\/+|\/+$/g, '') : '';
  const parts = rest === '' ? [] : rest.split('/').map(decodeURIComponent);
  if (parts.length === 1 && parts[0] === 'callback') return callback();
  if (parts.length === 0) return home();
  if (parts.length === 1) return orgPage(parts[0]);
  if (parts.length === 2) return projectPage(parts[0], parts[1]);
  if (parts.length === 3 && parts[2] === 'events') return eventsPage(parts[0], parts[1]);
  if (parts.length === 4 && parts[2] === 'resources') return itemPage(parts[0], parts[1], parts[3]);
  throw new ApiError(404);
};

route().catch((error) => show('Something went wrong', failure(error)));
