// Mutation testing (StrykerJS, `npm run mutation`): each group mutates the modules where a silent bug
// costs most and runs only the tests that cover them. The command runner is used because the mocha
// runner of Stryker 9 does not load mocha 12 and Stryker 10 needs Node 22: each mutant runs the
// group's mocha command in the sandbox (tsc-built with every mutant switchable by
// __STRYKER_ACTIVE_MUTANT__, which child processes inherit too). Group: MUTATION_GROUP.
// The sandbox gets no node_modules of its own (ours is a symlink): tools are named by their path here.
const modules = new URL('./node_modules/', import.meta.url).pathname;
const mocha = (...files) =>
  `node ${modules}mocha/bin/mocha.js --no-config --bail --timeout 20000 --exit ${files.map((f) => `dist/test/${f}.test.js`).join(' ')}`;

export const groups = {
  access: {
    // route.ts: the ACL targets and the guard (run, authorize, param).
    mutate: ['src/auth/aclAllows.ts', 'src/auth/aclsCheck.ts', 'src/auth/permissions.ts', 'src/http/route.ts:25-27', 'src/http/route.ts:116-151'],
    command: mocha('unit/aclAllows', 'unit/aclsCheck', 'unit/permissions', 'unit/routeGuard'),
  },
  secrets: {
    mutate: ['src/http/render/storages.ts'],
    command: mocha('http/blobFiles', 'http/storages'),
  },
  meter: {
    mutate: ['src/files/meter.ts', 'src/domain/files/FileService.ts:169-180'],
    command: mocha('http/files'),
  },
  lifecycle: {
    mutate: ['src/domain/Lifecycle.ts', 'src/domain/EventWriter.ts'],
    command: mocha('unit/eventWriter', 'http/resources.lifecycle', 'http/storages'),
  },
  search: {
    mutate: ['src/search/SearchService.ts:36-100'],
    command: mocha('unit/searchConfig', 'http/search.query'),
  },
  sparql: {
    // The endpoint, and the dataset restriction of each store: the embedded one (ProjectDatasets) and an external one (confinedQuery).
    mutate: ['src/sparqlEndpoint/SparqlEndpoint.ts', 'src/store/ProjectSparqlStore.ts', 'src/store/ProjectDatasets.ts'],
    command: mocha('unit/sparqlEndpoint', 'integration/projectDatasets'),
  },
};

const name = process.env.MUTATION_GROUP ?? 'meter';
const group = groups[name];
if (!group) throw new Error(`MUTATION_GROUP: one of ${Object.keys(groups).join(', ')}, got '${name}'`);

export default {
  packageManager: 'npm',
  testRunner: 'command',
  commandRunner: { command: group.command },
  buildCommand: `node ${modules}typescript/bin/tsc -p tsconfig.json`,
  // TypeScript 7 has no JS API for Stryker to rewrite tsconfig.json with; ours needs no rewrite.
  tsconfigFile: 'tsconfig.stryker-leaves-as-is.json',
  // Mutants change types (a function may return undefined): no file of the sandbox is type-checked.
  disableTypeChecks: '{src,test,bench}/**/*.ts',
  coverageAnalysis: 'off',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 60_000,
  ignorePatterns: ['dist', 'reports', '.stryker-tmp', 'data'],
  mutate: group.mutate,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  tempDirName: `.stryker-tmp/${name}`,
  cleanTempDir: 'always',
};
