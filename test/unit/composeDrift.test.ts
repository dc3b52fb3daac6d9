import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The compose file is YAML and worth parsing for real (js-yaml, a devDependency).
import { load } from 'js-yaml';
import { assetPath } from '../../src/util/assets.js';
import { loadConfig, REDIS_STREAM_NODE_BYTES } from '../../src/config/Config.js';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';

type Service = {
  environment?: Record<string, string>;
  command?: string[];
  volumes?: string[];
  configs?: { source: string; target: string }[];
  networks?: Record<string, { aliases?: string[] }>;
  healthcheck?: { test: string[] };
};
type Compose = { services: Record<string, Service>; configs: Record<string, { content: string }> };

const docker = (...parts: string[]) => assetPath('docker', ...parts);
const text = (...parts: string[]) => readFileSync(docker(...parts), 'utf8');

/** Every variable the compose file interpolates, with the value an operator's docker/.env would give. */
const variables: Record<string, string> = {
  STORAGE_PASSWORD: 'storage-password',
  VIRTUOSO_DBA_PASSWORD: 'dba-password',
  S3_ACCESS_KEY: 'registry',
  S3_SECRET_KEY: 'secret-key-123',
  KEYCLOAK_ADMIN_PASSWORD: 'keycloak-password',
  REGISTRY_ADMIN_USER: 'admin',
  REGISTRY_ADMIN_PASSWORD: 'admin-password',
  BASE_URL: 'http://localhost:8080',
  REGISTRY_PORT: '8080',
  VIRTUOSO_BUFFERS: '170000',
  VIRTUOSO_DIRTY_BUFFERS: '130000',
};

/** Compose's interpolation: `${NAME}`, `${NAME:-default}`, `${NAME:?error}`; `$$` is a literal `$`. */
const interpolate = (raw: string, values: Record<string, string | undefined>): string =>
  raw.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-?])([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, arg: string) => {
    if (whole === '$$') return '$';
    const value = values[name!];
    if (value !== undefined && value !== '') return value;
    if (op === '-') return arg;
    throw new Error(`compose would refuse to start: ${name} is unset${op === '?' ? ` (${arg})` : ''}`);
  });

const interpolatedNames = (raw: string): string[] => [...raw.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);

const compose = (): Compose => load(interpolate(text('compose.yaml'), variables)) as Compose;

/** The environment names `loadConfig` reads, whatever their values: it asks for each one. */
const namesTheLoaderReads = (): Set<string> => {
  const read = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_, name) => {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return read;
};

/** What the image's own start reads besides the registry's settings (the Dockerfile's ENV, start.sh, Node). */
const RUNTIME = new Set([
  'NODE_ENV', // the version route's `environment`
  'HEAP_PERCENT', // docker/start.sh sizes the heap with it
  'NODE_EXTRA_CA_CERTS', // Node: the provider's local CA (docker/idp.Caddyfile)
]);

describe('docker/compose.yaml and the code it runs', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'compose-drift-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const registryEnv = (file: string): NodeJS.ProcessEnv => {
    const { environment } = compose().services['registry']!;
    return { ...environment, CONFIG_FILE: file, DATA_DIR: join(dir, 'data') };
  };
  const configFile = (): string => {
    const { services, configs } = compose();
    const source = services['registry']!.configs!.find((c) => c.target === services['registry']!.environment!['CONFIG_FILE'])!.source;
    const file = join(dir, 'registry.json');
    writeFileSync(file, configs[source]!.content);
    return file;
  };

  it('sets for the registry only variables its configuration loader (or the image) reads', () => {
    const known = namesTheLoaderReads();
    const image = /^ENV (.+)$/m
      .exec(text('Dockerfile'))![1]!
      .split(/\s+/)
      .map((pair) => pair.split('=')[0]!);
    const names = Object.keys(compose().services['registry']!.environment ?? {});
    expect(
      names.filter((name) => !known.has(name) && !RUNTIME.has(name)),
      'registry sets variables nothing reads',
    ).to.deep.equal([]);
    expect(image.filter((name) => !known.has(name) && !RUNTIME.has(name))).to.deep.equal([]);
    expect(text('start.sh')).to.include('HEAP_PERCENT');
  });

  it("loads the registry's settings as every replica gets them: Redis, the external store, S3 and disk storages", () => {
    const config = loadConfig(registryEnv(configFile()));
    expect(config.redisUrl).to.equal('redis://redis:6379');
    expect(config.storages!.password).to.equal('storage-password');
    expect(config.sparqlStore).to.deep.equal({
      query: 'http://virtuoso:8890/sparql',
      update: 'http://virtuoso:8890/sparql',
      gsp: 'http://virtuoso:8890/sparql-graph-crud',
      // Projections are rebuildable from the log: the compose file writes them by Virtuoso's unlogged path and its text index.
      fastWrites: 'virtuoso',
      textIndex: 'virtuoso',
    });
    const blob = config.storages!.defaults.BlobStorage;
    expect(blob).to.include({ enabled: true, endpoint: 'http://minio:9000', accessKey: 'registry', secretKey: 'secret-key-123', bucket: 'registry' });
    const { environment } = compose().services['minio']!;
    expect([environment!['MINIO_ROOT_USER'], environment!['MINIO_ROOT_PASSWORD']]).to.deep.equal([blob.accessKey, blob.secretKey]);
    expect(config.storages!.defaults.DiskStorage.volume).to.equal('/files');
    expect(compose().services['registry']!.volumes).to.include('files:/files');
  });

  it('refuses to start without the secrets, and docker/env.example names every variable it interpolates', () => {
    for (const secret of ['STORAGE_PASSWORD', 'VIRTUOSO_DBA_PASSWORD', 'S3_SECRET_KEY', 'REGISTRY_ADMIN_PASSWORD'])
      expect(() => interpolate(text('compose.yaml'), { ...variables, [secret]: undefined })).to.throw(secret);
    const example = new Set([...text('env.example').matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    expect([...new Set(interpolatedNames(text('compose.yaml')))].filter((name) => !example.has(name))).to.deep.equal([]);
  });

  it('keeps Redis durable: append-only file, fsync at every write', () => {
    const command = compose().services['redis']!.command!.join(' ');
    expect(command).to.include('--appendonly yes').and.include('--appendfsync always');
  });

  it("writes the log's stream in nodes as large as the replicas ask for (KB-sized events cost ~1.4x their JSON in 4 KB nodes)", () => {
    const command = compose().services['redis']!.command!;
    const bytes = Number(command[command.indexOf('--stream-node-max-bytes') + 1]);
    expect(bytes).to.be.at.least(REDIS_STREAM_NODE_BYTES);
  });

  it("ties the realm together: provider, TLS front, the replicas' provisioning and frontend name one issuer and one realm", () => {
    const { services } = compose();
    const keycloak = services['keycloak']!.environment!;
    const realm = JSON.parse(text('keycloak', 'registry-realm.json')) as { realm: string; clients: { clientId: string }[]; groups: { name: string }[] };
    const issuerBase = keycloak['KC_HOSTNAME']!;
    // Every replica provisions the realm and, on a fresh deployment, the root ACL (src/provisioning).
    const { provisioning } = loadConfig(registryEnv(configFile()));
    const label = services['registry']!.environment!['FRONTEND_REALM']!;
    expect(Object.keys(provisioning!.realms)).to.deep.equal([label]);
    expect(provisioning!.realms[label]!.openIdConfig).to.equal(`${issuerBase}/realms/${realm.realm}/.well-known/openid-configuration`);
    expect(issuerBase).to.match(/^https:/); // the registry takes a provider over https only, off loopback
    expect(text('idp.Caddyfile')).to.include(`${issuerBase} {`);
    expect(services['idp']!.networks!['default']!.aliases).to.include(new URL(issuerBase).hostname);
    expect(realm.clients.map((c) => c.clientId)).to.include(services['registry']!.environment!['FRONTEND_CLIENT_ID']);
    // The mounted ACL file grants every permission on / to the realm's admins group, and nothing else.
    const mounted = services['registry']!.volumes!.find((v) => v.split(':')[1] === provisioning!.aclFile)!.split(':')[0]!;
    const acls = JSON.parse(text(mounted)) as Record<string, { identity: { realm: string; group: string }; permissions: string[] }[]>;
    expect(Object.keys(acls)).to.deep.equal(['/']);
    expect(acls['/']!.map((e) => e.identity)).to.deep.equal([{ realm: label, group: 'admins' }]);
    expect(realm.groups.map((g) => g.name)).to.include('admins');
    expect([...acls['/']![0]!.permissions].sort()).to.deep.equal([...MINIMUM_PERMISSIONS]);
    expect(services).to.not.have.property('bootstrap');
    // The realm file's placeholders are Keycloak's, filled from its environment.
    for (const name of interpolatedNames(text('keycloak', 'registry-realm.json'))) expect(keycloak, name).to.have.property(name);
  });

  it('balances over the service `registry` on the port its replicas listen on, and mounts only files that exist', () => {
    const { services } = compose();
    const port = /PORT=(\d+)/.exec(text('Dockerfile'))![1]!;
    expect(text('balancer.Caddyfile')).to.match(new RegExp(`dynamic a registry ${port}\\b`));
    expect(services['registry']!.healthcheck!.test.join(' ')).to.include(`127.0.0.1:${port}/health/ready`);
    for (const [name, service] of Object.entries(services))
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(docker(source)), `${name} mounts ${source}`).to.equal(true);
      }
  });
});

describe('docker/Dockerfile and the package', () => {
  const dockerfile = text('Dockerfile');
  const [build, runtime] = dockerfile.split(/^FROM /m).slice(1) as [string, string];
  const copied = (stage: string) => [...stage.matchAll(/^COPY (?:--from=\S+ )?(\S+) (\S+)$/gm)].map((m) => ({ from: m[1]!, to: m[2]! }));
  const pkg = JSON.parse(readFileSync(assetPath('package.json'), 'utf8')) as { scripts: Record<string, string> };

  it('builds what `npm run build` compiles: every folder tsconfig includes is copied in', () => {
    const tsconfig = JSON.parse(readFileSync(assetPath('tsconfig.json'), 'utf8')) as { include: string[] };
    const sources = new Set(copied(build).map((c) => c.from));
    expect(build).to.match(/^RUN npm run build\b/m);
    expect(pkg.scripts['build']).to.equal('node scripts/build.mjs');
    expect(sources).to.include('scripts');
    for (const root of new Set(tsconfig.include.map((glob) => glob.split('/')[0]!))) expect(sources, root).to.include(root);
  });

  it('starts what `npm start` starts, and ships every file the code reads at run time', () => {
    // Settings of the process may come first (`MALLOC_ARENA_MAX=...`), as start.sh exports them.
    const entry = /^(?:[A-Z_]+=\S+ )*node (\S+)$/.exec(pkg.scripts['start']!)![1]!;
    expect(text('start.sh')).to.include(`node dist/src/main.js`);
    expect(entry).to.equal('dist/src/main.js');
    expect(pkg.scripts['migrate-store']).to.match(/^node dist\/src\/tools\/migrateStore\.js$/);
    const shipped = copied(runtime).map((c) => (c.to.endsWith('/') ? `${c.to}${c.from.split('/').pop()}` : c.to).replace(/^\.\//, ''));
    const sourceFiles = (folder: string): string[] =>
      readdirSync(folder).flatMap((name) =>
        statSync(join(folder, name)).isDirectory() ? sourceFiles(join(folder, name)) : name.endsWith('.ts') ? [join(folder, name)] : [],
      );
    const reads = sourceFiles(assetPath('src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/assetPath\(((?:'[^']+'(?:, )?)+)\)/g)].map((m) => [...m[1]!.matchAll(/'([^']+)'/g)].map((p) => p[1]!).join('/')),
    );
    expect(reads.length).to.be.greaterThan(0);
    for (const path of reads)
      expect(
        shipped.some((dir) => path === dir || path.startsWith(`${dir}/`)),
        `${path} is read at run time`,
      ).to.equal(true);
  });
});
