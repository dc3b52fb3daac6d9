/**
 * After `npm run mutation`: the mutation score of each mutated module, from Stryker's JSON reports
 * (reports/mutation/*.json), as the Markdown table the README shows, with the lines each group
 * mutates (stryker.config.mjs). Score = (killed + timed out) / (killed + timed out + survived + not
 * covered), as Stryker counts it; mutants marked equivalent (`// Stryker disable`) are not counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

const { groups } = (await import(pathToFileURL(resolve('stryker.config.mjs')).href)) as { groups: Record<string, { mutate: string[] }> };

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
  for (const [path, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const count = (...statuses: string[]) => mutants.filter((m) => statuses.includes(m.status)).length;
    const detected = count('Killed', 'Timeout');
    const valid = detected + count('Survived', 'NoCoverage');
    const score = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)} %`;
    rows.push(`| ${group} | ${path} | ${linesOf(group, path)} | ${valid} | ${detected} | ${valid - detected} | ${count('Ignored')} | ${score} |`);
  }
}
process.stdout.write(`${rows.join('\n')}\n`);
