/**
 * The test command of a mutation run (stryker.config.mjs), run in Stryker's sandbox once built: the
 * tests of the module the active mutant is in (`__STRYKER_ACTIVE_MUTANT__`, found among the
 * instrumented sources of the group), or every test of the group for the dry run. A group's run
 * then costs each mutant only the tests that can kill it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Mocha from 'mocha';

interface Group {
  /** Module (`src/…ts`) → the test files (`unit/x` for dist/test/unit/x.test.js) that exercise it. */
  tests: Record<string, string[]>;
}

const name = process.env['MUTATION_GROUP'] ?? 'meter';
const { groups } = (await import(pathToFileURL(resolve('stryker.config.mjs')).href)) as { groups: Record<string, Group> };
const group = groups[name]!;
const active = process.env['__STRYKER_ACTIVE_MUTANT__'];
const everyTest = [...new Set(Object.values(group.tests).flat())];
const module = active === undefined ? undefined : Object.keys(group.tests).find((m) => readFileSync(m, 'utf8').includes(`stryMutAct_9fa48("${active}")`));
const files = module === undefined ? everyTest : group.tests[module]!;

const mocha = new Mocha({ bail: true, timeout: 20_000 });
for (const file of files) mocha.addFile(resolve('dist', 'test', `${file}.test.js`));
await mocha.loadFilesAsync();
mocha.run((failures) => process.exit(failures ? 1 : 0));
