/**
 * After `npm run mutation`: the mutation score of each mutated module, from Stryker's JSON reports
 * (reports/mutation/*.json), as the Markdown table the README shows, with the lines each group
 * mutates (stryker.config.mjs). Score = (killed + timed out) / (killed + timed out + survived + not
 * covered), as Stryker counts it; mutants marked equivalent (`// Stryker disable`) are not counted.
 * Where a group's survivors were tested again after new tests (MUTATION_RETEST, reports/mutation/
 * retest/), a mutant's status is the later one: tests were only added, so a kill stays a kill.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Mutant {
  status: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number } };
}

interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}

/** A mutant by the text of its line rather than its number, which a `// Stryker disable` comment added above shifts. */
const keyOf = (path: string, source: string, m: Mutant) =>
  [path, source.split('\n')[m.location.start.line - 1]?.trim(), m.location.start.column, m.mutatorName, m.replacement ?? ''].join('|');

/** Statuses of a later run of some of the group's lines (MUTATION_RETEST), by mutant. */
const retested = (group: string): Map<string, string> => {
  const file = join('reports', 'mutation', 'retest', `${group}.json`);
  if (!existsSync(file)) return new Map();
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  return new Map(Object.entries(report.files).flatMap(([path, { source, mutants }]) => mutants.map((m) => [keyOf(path, source, m), m.status] as const)));
};

const { groups } = (await import(pathToFileURL(resolve('stryker.config.mjs')).href)) as { groups: Record<string, { mutate: string[] }> };

/** Whether a group mutates line `line` of `path` now (a report may come from a run with wider ranges). */
const mutated = (group: string, path: string, line: number): boolean => {
  const ranges = linesOf(group, path);
  return (
    ranges === 'all' ||
    ranges.split(', ').some((r) => {
      const [from, to] = r.split('-').map(Number) as [number, number];
      return line >= from && line <= to;
    })
  );
};

/** The line ranges of `path` a group mutates, or `all`. */
const linesOf = (group: string, path: string): string => {
  const ranges = (groups[group]?.mutate ?? []).filter((m) => m === path || m.startsWith(`${path}:`)).map((m) => m.slice(path.length + 1));
  return ranges.includes('') || ranges.length === 0 ? 'all' : ranges.join(', ');
};

const dir = join('reports', 'mutation');
const rows: string[] = ['| Group | Module | Lines | Mutants | Killed | Survived | Equivalent | Score |', '|---|---|---|---|---|---|---|---|'];
for (const name of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Report;
  const group = name.replace(/\.json$/, '');
  const later = retested(group);
  for (const [path, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const statuses = mutants.filter((m) => mutated(group, path, m.location.start.line)).map((m) => later.get(keyOf(path, source, m)) ?? m.status);
    const count = (...wanted: string[]) => statuses.filter((s) => wanted.includes(s)).length;
    const detected = count('Killed', 'Timeout');
    const valid = detected + count('Survived', 'NoCoverage');
    const score = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)} %`;
    rows.push(`| ${group} | ${path} | ${linesOf(group, path)} | ${valid} | ${detected} | ${valid - detected} | ${count('Ignored')} | ${score} |`);
  }
}
process.stdout.write(`${rows.join('\n')}\n`);
