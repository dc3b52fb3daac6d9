/**
 * After `npm run mutation`: the mutation score of each mutated module, from Stryker's JSON reports
 * (reports/mutation/*.json), as the Markdown table the README shows. Score = (killed + timed out) /
 * (killed + timed out + survived + not covered), as Stryker counts it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

const dir = join('reports', 'mutation');
const rows: string[] = ['| Group | Module | Mutants | Killed | Survived | Score |', '|---|---|---|---|---|---|'];
for (const name of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Report;
  for (const [path, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const count = (...statuses: string[]) => mutants.filter((m) => statuses.includes(m.status)).length;
    const detected = count('Killed', 'Timeout');
    const valid = detected + count('Survived', 'NoCoverage');
    const score = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)} %`;
    rows.push(`| ${name.replace(/\.json$/, '')} | ${path} | ${valid} | ${detected} | ${valid - detected} | ${score} |`);
  }
}
process.stdout.write(`${rows.join('\n')}\n`);
