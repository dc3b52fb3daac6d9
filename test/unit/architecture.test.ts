import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..', '..', '..');
const SRC = join(ROOT, 'src');

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

/** Every module of `src` with the modules of `src` it imports (type-only imports included: they couple too). */
const graph = (): Map<string, string[]> => {
  const imports = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.\.?\/[^']+)\.js'/g)].map((m) => normalize(join(dirname(file), `${m[1]}.ts`)));
    imports.set(
      relative(SRC, file),
      targets.map((t) => relative(SRC, t)),
    );
  }
  return imports;
};

/** Strongly connected components with more than one module (or a module importing itself): the import cycles. */
const cycles = (g: Map<string, string[]>): string[][] => {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (g.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return found;
};

/** The folder a module belongs to: its top folder under `src`, each module of `modules/` its own, files at the top the composition root (`.`). */
const folderOf = (module: string): string => {
  const parts = module.split('/');
  if (parts.length === 1) return '.';
  return parts[0] === 'modules' && parts.length > 2 ? `modules/${parts[1]}` : parts[0]!;
};

/** The folder graph: an edge for every import from a module of one folder to a module of another. */
const folderGraph = (g: Map<string, string[]>): Map<string, string[]> => {
  const folders = new Map<string, Set<string>>();
  for (const [from, targets] of g) {
    const edges = folders.get(folderOf(from)) ?? new Set<string>();
    folders.set(folderOf(from), edges);
    for (const target of targets) if (folderOf(target) !== folderOf(from)) edges.add(folderOf(target));
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges].sort()]));
};

/** Every kind the log records: the keys of `KindNames`, the core's and those each module merges in. */
const kindNames = (): string[] =>
  files(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/interface KindNames \{([^}]*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/(\w+): true/g)].map((k) => k[1]!)),
  );

/**
 * The floors, bottom up (docs/architecture.md): a folder imports folders of its own floor or
 * below, never above; a new folder is placed here.
 */
const FLOORS: string[][] = [
  ['kernel', 'rdf', 'util'],
  ['events', 'store', 'workers'],
  ['jsonld'],
  ['domain'],
  ['shacl'],
  ['projection', 'catalogue', 'search', 'streams', 'sparqlEndpoint', 'tracker'],
  ['http'],
  ['modules'],
  [
    'modules/iam',
    'modules/views',
    'modules/archives',
    'modules/history',
    'modules/bulk',
    'modules/graphAnalytics',
    'modules/schemaJobs',
    'modules/files',
    'frontend',
    'resolvers',
  ],
  // The configuration is read by the composition root only: each part below takes its own typed options.
  ['platform', 'config'],
  ['.', 'tools'],
];

/**
 * Values exported though no other file of src/, test/ or bench/ names them (a word match, so a
 * name used elsewhere for something else hides one: it finds fewer, never too many).
 */
const deadExports = (): string[] => {
  const all = ['src', 'test', 'bench'].flatMap((dir) => files(join(ROOT, dir)));
  const texts = new Map(all.map((file) => [file, readFileSync(file, 'utf8')]));
  return files(SRC).flatMap((file) =>
    [...texts.get(file)!.matchAll(/^export (?:const|let|function|async function|class|abstract class) (\w+)/gm)]
      .map((m) => m[1]!)
      .filter((name) => !all.some((other) => other !== file && new RegExp(`\\b${name}\\b`).test(texts.get(other)!)))
      .map((name) => `${relative(SRC, file)}: ${name}`),
  );
};

/** Dead exports found when the check came (issue 33), in folders other work was changing then: to remove there. */
const KNOWN_DEAD_EXPORTS = [
  'catalogue/CatalogueQueries.ts: cursorOrder',
  'catalogue/Listings.ts: resolveIri',
  'catalogue/SortValue.ts: EMPTY',
  'catalogue/SortValue.ts: doubleText',
  'search/store/StoreTextMatcher.ts: freeText',
  'store/remoteSparql.ts: standardBinding',
  'store/remoteSparql.ts: TEMPLATE_TRIPLES',
  'store/wasmMemory.ts: LARGEST_CLAIM',
  'store/wasmMemory.ts: CLAIM_CEILING',
  'store/wasmMemory.ts: claimWasmMemory',
];

describe('architecture', () => {
  const g = graph();

  it('reads a plausible import graph (an empty or broken one would pass every check below)', () => {
    const edges = [...g.values()].reduce((n, targets) => n + targets.length, 0);
    expect(g.size, 'modules').to.be.above(200);
    expect(edges, 'imports between modules').to.be.above(500);
    expect(g.get('app.ts') ?? [], 'the composition root imports').to.include('platform/coreServices.ts');
    expect([...g.keys()].some((m) => m.startsWith('domain/')) && [...g.keys()].some((m) => m.startsWith('kernel/'))).to.equal(true);
  });

  it('has no import cycles', () => {
    expect(cycles(g)).to.deep.equal([]);
  });

  it('keeps the domain free of adapters: no http, projection, store, read model or event-log implementation', () => {
    const allowed = (target: string) =>
      !/^(http|projection|store|catalogue|modules|search|tracker)\//.test(target) && !/^events\/(?!EventLog\.ts$)/.test(target);
    const offending = [...g]
      .filter(([from]) => from.startsWith('domain/'))
      .flatMap(([from, targets]) => targets.filter((t) => !allowed(t)).map((t) => `${from} -> ${t}`));
    expect(offending).to.deep.equal([]);
  });

  it('keeps the kernel a ground floor: it imports nothing above it', () => {
    const offending = [...g]
      .filter(([from]) => from.startsWith('kernel/'))
      .flatMap(([from, targets]) =>
        targets.filter((t) => !t.startsWith('kernel/') && !t.startsWith('domain/labels') && !t.startsWith('domain/Subject')).map((t) => `${from} -> ${t}`),
      );
    expect(offending).to.deep.equal([]);
  });

  it('has no folder cycles: folders form floors (Tarjan over the folder graph)', () => {
    expect(cycles(folderGraph(g))).to.deep.equal([]);
  });

  it('keeps each folder on its floor: it imports its own floor or those below', () => {
    const floorOf = new Map(FLOORS.flatMap((folders, floor) => folders.map((f) => [f, floor] as const)));
    const folders = folderGraph(g);
    expect(
      [...folders.keys()].filter((f) => !floorOf.has(f)),
      'folders without a floor',
    ).to.deep.equal([]);
    const upward = [...folders].flatMap(([from, targets]) => targets.filter((t) => floorOf.get(t)! > floorOf.get(from)!).map((t) => `${from} -> ${t}`));
    expect(upward).to.deep.equal([]);
  });

  it('finds a folder cycle where there is one (the check above sees what it should)', () => {
    const made = new Map([
      ['a/x.ts', ['b/y.ts']],
      ['b/y.ts', ['c/z.ts']],
      ['c/z.ts', ['a/w.ts']],
      ['a/w.ts', []],
      ['d/v.ts', ['a/x.ts']],
    ]);
    expect(cycles(folderGraph(made))).to.deep.equal([['a', 'b', 'c']]);
  });

  it('keeps each module to itself: no file outside a module imports it, the capability list aside', () => {
    const offending = [...g].flatMap(([from, targets]) =>
      targets.filter((t) => /^modules\/[^/]+\//.test(t) && folderOf(t) !== folderOf(from) && from !== 'platform/capabilities.ts').map((t) => `${from} -> ${t}`),
    );
    expect(offending).to.deep.equal([]);
  });

  it('exports only what another file uses (values; types stay exported as parts of the signatures that name them)', () => {
    expect(deadExports().filter((found) => !KNOWN_DEAD_EXPORTS.includes(found))).to.deep.equal([]);
  });

  it('keeps the composition root a page: app.ts under 200 lines, naming no kind', () => {
    const text = readFileSync(join(SRC, 'app.ts'), 'utf8');
    const kinds = kindNames();
    expect(kinds, 'kinds found').to.include.members(['resources', 'schemas', 'views']);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    expect(lines, 'lines of app.ts').to.be.below(200);
    const quoted = kinds.filter((k) => text.includes(`'${k}'`) || text.includes(`"${k}"`));
    expect(quoted, 'kind names quoted in app.ts').to.deep.equal([]);
  });
});
