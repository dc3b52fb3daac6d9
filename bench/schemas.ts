import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess } from './harness.js';

const EX = 'http://example.org/vocab/';
const CONTEXT = { ex: EX };

/** A schema whose node shape targets `ex:{cls}` with a property shape per name. */
const schema = (id: string, cls: string, props: string[], imports: string[] = []) => ({
  '@context': CONTEXT,
  '@id': id,
  ...(imports.length ? { imports } : {}),
  shapes: [
    {
      '@id': `${id}/shape`,
      '@type': 'sh:NodeShape',
      nodeKind: 'sh:BlankNodeOrIRI',
      targetClass: `ex:${cls}`,
      property: props.map((p) => ({ path: `ex:${p}`, datatype: integral(p) ? 'xsd:integer' : 'xsd:string', minCount: 1 })),
    },
  ],
});

const PROPS = Array.from({ length: 10 }, (_, i) => `p${i}`);
/** Every third property holds integers. */
const integral = (p: string) => Number(p.slice(1)) % 3 === 0;

/** A conforming resource: the ten properties, integers where the shapes say so. */
const resource = (i: number) => ({
  '@context': CONTEXT,
  '@type': 'ex:Sample',
  ...Object.fromEntries(PROPS.map((p) => [`ex:${p}`, integral(p) ? i : `value ${p} of ${i}`])),
});

/** Creates the project and the schemas: `flat` holds the ten property shapes, `top` → `middle` → `leaf` share them. */
const setup = async (url: string) => {
  await json(`${url}/v1/orgs/bench`, 'PUT', {});
  await json(`${url}/v1/projects/bench/schemas`, 'PUT', {});
  const schemas = `${url}/v1/schemas/bench/schemas`;
  await json(schemas, 'POST', schema(`${EX}flat`, 'Sample', PROPS));
  await json(schemas, 'POST', schema(`${EX}leaf`, 'Sample', PROPS.slice(7)));
  await json(schemas, 'POST', schema(`${EX}middle`, 'Sample', PROPS.slice(4, 7), [`${EX}leaf`]));
  await json(schemas, 'POST', schema(`${EX}top`, 'Sample', PROPS.slice(0, 4), [`${EX}middle`]));
};

/**
 * Issue 3's benchmark: validated creates at concurrency 8 against a schema of 10 property shapes,
 * and against the same shapes spread over a schema importing two levels of schemas, with
 * unconstrained creates as the baseline. Each scenario gets a fresh server and store, so the
 * figures do not depend on how much earlier scenarios wrote.
 */
export const benchSchemas = async (count = 5_000): Promise<void> => {
  console.log(`\nschemas: ${count} creates per scenario (fresh store each), 10 property shapes, concurrency 8`);
  for (const [name, segment] of [
    ['validated, single schema', `${EX}flat`],
    ['validated, two levels of imports', `${EX}top`],
    ['unconstrained (baseline)', '_'],
  ] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-schemas-'));
    const server = await startProcess(dataDir, 19_000 + Math.floor(Math.random() * 1000));
    try {
      await setup(server.url);
      const target = `${server.url}/v1/resources/bench/schemas/${encodeURIComponent(segment)}`;
      // Warm-up, so the measured run does not pay for the JIT or the first compilation of the shapes.
      for (let i = 0; i < 300; i++) await json(target, 'POST', resource(i));
      await measure(`create ${name}`, count, 8, async (i) => void (await json(target, 'POST', resource(i))));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
};
