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

describe('architecture', () => {
  const g = graph();

  it('reads a plausible import graph (an empty or broken one would pass every check below)', () => {
    const edges = [...g.values()].reduce((n, targets) => n + targets.length, 0);
    expect(g.size, 'modules').to.be.above(200);
    expect(edges, 'imports between modules').to.be.above(500);
    expect(g.get('app.ts') ?? [], 'the composition root imports').to.include('domain/Lifecycle.ts');
    expect([...g.keys()].some((m) => m.startsWith('domain/')) && [...g.keys()].some((m) => m.startsWith('kernel/'))).to.equal(true);
  });

  it('has no import cycles', () => {
    expect(cycles(g)).to.deep.equal([]);
  });

  it('keeps the domain free of adapters: no http, projection, store, read model or event-log implementation', () => {
    const allowed = (target: string) => !/^(http|projection|store|catalogue|files|search|tracker)\//.test(target) && !/^events\/(?!EventLog\.ts$)/.test(target);
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
});
