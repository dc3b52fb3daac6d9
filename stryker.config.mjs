// Mutation testing (StrykerJS, `npm run mutation`): each group mutates the modules where a silent bug
// costs most and runs only the tests that cover them. The command runner is used because the mocha
// runner of Stryker 9 does not load mocha 12 and Stryker 10 needs Node 22: each mutant runs
// test/support/mutantTests.js in the sandbox (tsc-built with every mutant switchable by
// __STRYKER_ACTIVE_MUTANT__, which child processes inherit too), which runs the tests of the
// mutant's module. Group: MUTATION_GROUP.
// The sandbox gets no node_modules of its own (ours is a symlink): tools are named by their path here
// (the sandbox lies below the worktree, so its imports find ours).
const modules = new URL('./node_modules/', import.meta.url).pathname;

/**
 * Per group: the modules mutated (a `:from-to` suffix mutates those lines only) and, per module, the
 * test files that exercise it (`unit/x`: dist/test/unit/x.test.js): a mutant runs only its module's
 * tests (test/support/mutantTests.ts), the dry run all of the group's.
 */
export const groups = {
  access: {
    timeoutMS: 15_000,
    // route.ts: the ACL targets and the guard (run, authorize, param).
    mutate: ['src/modules/iam/aclAllows.ts', 'src/modules/iam/aclsCheck.ts', 'src/kernel/permissions.ts', 'src/http/route.ts:25-27', 'src/http/route.ts:116-151'],
    tests: {
      'src/modules/iam/aclAllows.ts': ['unit/aclAllows', 'unit/aclsCheck'],
      'src/modules/iam/aclsCheck.ts': ['unit/aclsCheck'],
      'src/kernel/permissions.ts': ['unit/permissions'],
      'src/http/route.ts': ['unit/routeGuard'],
    },
  },
  secrets: {
    mutate: ['src/http/render/storages.ts'],
    tests: { 'src/http/render/storages.ts': ['http/blobFiles', 'http/storages'] },
  },
  meter: {
    mutate: ['src/files/meter.ts', 'src/domain/files/FileService.ts:169-180'],
    tests: { 'src/files/meter.ts': ['http/files'], 'src/domain/files/FileService.ts': ['http/files'] },
  },
  lifecycle: {
    mutate: ['src/domain/Lifecycle.ts', 'src/domain/EventWriter.ts'],
    tests: {
      'src/domain/Lifecycle.ts': ['unit/lifecycle', 'unit/eventWriter', 'http/resources.lifecycle', 'http/storages'],
      'src/domain/EventWriter.ts': ['unit/eventWriter', 'http/resources.lifecycle', 'http/storages'],
    },
  },
  search: {
    mutate: ['src/search/SearchService.ts:36-100'],
    tests: { 'src/search/SearchService.ts': ['unit/searchConfig', 'http/search.query'] },
  },
  sparql: {
    timeoutMS: 15_000,
    // The endpoint, and the dataset restriction of each store: the embedded one (ProjectDatasets)
    // and an external one's query rewriting (confinedQuery).
    // ProjectDatasets.ts without prepareLoad / reserve (63-83): memory claimed ahead of loads, which
    // changes when Oxigraph's WASM memory grows, not what any query sees (and no test can see it).
    mutate: [
      'src/sparqlEndpoint/SparqlEndpoint.ts',
      'src/store/ProjectSparqlStore.ts',
      'src/store/ProjectDatasets.ts:1-62',
      'src/store/ProjectDatasets.ts:84-318',
      'src/store/confinedQuery.ts',
    ],
    tests: {
      'src/sparqlEndpoint/SparqlEndpoint.ts': ['unit/sparqlEndpoint'],
      'src/store/ProjectSparqlStore.ts': ['unit/sparqlEndpoint', 'integration/projectDatasets', 'integration/confinedQuery'],
      'src/store/ProjectDatasets.ts': ['integration/projectDatasets'],
      'src/store/confinedQuery.ts': ['integration/confinedQuery'],
    },
  },
};

const name = process.env.MUTATION_GROUP ?? 'meter';
const group = groups[name];
if (!group) throw new Error(`MUTATION_GROUP: one of ${Object.keys(groups).join(', ')}, got '${name}'`);

export default {
  packageManager: 'npm',
  testRunner: 'command',
  commandRunner: { command: `node dist/test/support/mutantTests.js` },
  buildCommand: `node ${modules}typescript/bin/tsc -p tsconfig.json`,
  // TypeScript 7 has no JS API for Stryker to rewrite tsconfig.json with; ours needs no rewrite.
  tsconfigFile: 'tsconfig.stryker-leaves-as-is.json',
  // Mutants change types (a function may return undefined): no file of the sandbox is type-checked.
  disableTypeChecks: '{src,test,bench}/**/*.ts',
  coverageAnalysis: 'off',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  // A mutant that loops forever costs this much past the dry run's time: unit groups need less.
  timeoutMS: group.timeoutMS ?? 60_000,
  ignorePatterns: ['dist', '.dist-*', 'reports', '.stryker-tmp', 'data'],
  mutate: group.mutate,
  reporters: ['clear-text', 'progress', 'json'],
  // MUTATION_RETEST=1 with `--mutate <file>:<lines>`: the survivors' lines tested again after new
  // tests, reported apart; mutationScores.js takes a mutant's status from the retest where it has one.
  jsonReporter: { fileName: process.env.MUTATION_RETEST ? `reports/mutation/retest/${name}.json` : `reports/mutation/${name}.json` },
  tempDirName: `.stryker-tmp/${name}${process.env.MUTATION_RETEST ? '-retest' : ''}`,
  cleanTempDir: 'always',
};
