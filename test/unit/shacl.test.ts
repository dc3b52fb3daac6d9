import { expect } from 'chai';
import { ShapesValidator } from '../../src/shacl/ShapesValidator.js';
import { importsIn, SchemaImports } from '../../src/shacl/SchemaImports.js';
import { SHACL_SHACL } from '../../src/shacl/shaclShacl.js';
import { ShapesValidator as SHACLShapes } from '../../src/shacl/ShapesValidator.js';

const shaclShacl = () => new SHACLShapes(SHACL_SHACL.text, SHACL_SHACL.format);
import type { ResourceState } from '../../src/domain/resources/Resource.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const SH = 'http://www.w3.org/ns/shacl#';
const EX = 'http://example.com/';
const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const IMPORTS = '<http://www.w3.org/2002/07/owl#imports>';

const shape = (name: string, cls: string, path: string) =>
  `<${EX}${name}> ${RDF_TYPE} <${SH}NodeShape> .\n<${EX}${name}> <${SH}targetClass> <${EX}${cls}> .\n` +
  `<${EX}${name}> <${SH}property> _:${name}p .\n_:${name}p <${SH}path> <${EX}${path}> .\n_:${name}p <${SH}minCount> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n`;

describe('SHACL validation', () => {
  it('reports conformance, targeted nodes and results as JSON-LD', async () => {
    const validator = new ShapesValidator(shape('S', 'Person', 'name'));
    const ok = await validator.validate(`<${EX}a> ${RDF_TYPE} <${EX}Person> .\n<${EX}a> <${EX}name> "Ann" .\n`);
    expect(ok).to.deep.include({ conforms: true, targetedNodes: 1 });
    const missing = await validator.validate(`<${EX}a> ${RDF_TYPE} <${EX}Person> .\n<${EX}b> ${RDF_TYPE} <${EX}Person> .\n<${EX}b> <${EX}name> "B" .\n`);
    expect(missing).to.deep.include({ conforms: false, targetedNodes: 2 });
    expect(missing.json['result']).to.have.length(1);
    expect((missing.json['result'] as Record<string, unknown>[])[0]).to.include({
      focusNode: `${EX}a`,
      sourceConstraintComponent: 'sh:MinCountConstraintComponent',
    });
    const untargeted = await validator.validate(`<${EX}d> ${RDF_TYPE} <${EX}Dog> .\n`);
    expect(untargeted).to.deep.include({ conforms: true, targetedNodes: 0 });
  });

  it('keeps concurrent validations on one validator apart', async () => {
    const validator = new ShapesValidator(shape('S', 'Person', 'name'));
    const good = `<${EX}a> ${RDF_TYPE} <${EX}Person> .\n<${EX}a> <${EX}name> "Ann" .\n`;
    const bad = `<${EX}b> ${RDF_TYPE} <${EX}Person> .\n`;
    const reports = await Promise.all(Array.from({ length: 20 }, (_, i) => validator.validate(i % 2 ? bad : good)));
    reports.forEach((r, i) => expect(r.conforms).to.equal(i % 2 === 0));
  });

  it('checks shapes against SHACL-for-SHACL', async () => {
    expect((await shaclShacl().validate(shape('S', 'Person', 'name'))).conforms).to.equal(true);
    const bad = shape('S', 'Person', 'name').replace('"1"^^<http://www.w3.org/2001/XMLSchema#integer>', '"many"');
    expect((await shaclShacl().validate(bad)).conforms).to.equal(false);
  });

  describe('imports', () => {
    const state = (id: string, rev = 1, deprecated = false) => ({ id, rev, deprecated }) as ResourceState;
    const graphs = new Map<string, string>([
      [`${EX}b`, `<${EX}b> ${IMPORTS} <${EX}c> .\n${shape('B', 'Person', 'email')}`],
      [`${EX}c`, `<${EX}c> ${IMPORTS} <${EX}a> .\n${shape('C', 'Person', 'age')}`],
      [`${EX}onto`, `<${EX}Person> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <${EX}Agent> .\n`],
      [`${EX}old`, ''],
    ]);
    const schemas = new Map([
      [`schemas/o/p/${EX}b`, state(`${EX}b`, 2)],
      [`schemas/o/p/${EX}c`, state(`${EX}c`)],
      [`schemas/o/p/${EX}old`, state(`${EX}old`, 3, true)],
    ]);
    const resources = new Map([[`resources/o/p/${EX}onto`, state(`${EX}onto`, 4)]]);
    const imports = new SchemaImports(
      asStates(schemas),
      asStates(resources),
      async (_kind, _project, id) => graphs.get(id) ?? '',
      async () => undefined,
    );

    it('finds owl:imports in N-Triples', () => {
      expect(importsIn(graphs.get(`${EX}b`)!)).to.deep.equal([`${EX}c`]);
      expect(importsIn(shape('S', 'P', 'x'))).to.deep.equal([]);
    });

    it('resolves transitively, pins revisions and stops at cycles', async () => {
      const own = `<${EX}a> ${IMPORTS} <${EX}b> .\n<${EX}a> ${IMPORTS} <${EX}onto> .\n`;
      const { imports: pinned, triples } = await imports.resolve('o/p', `${EX}a`, own);
      expect(pinned).to.deep.equal([
        { kind: 'schemas', id: `${EX}b`, project: 'o/p', rev: 2 },
        { kind: 'resources', id: `${EX}onto`, project: 'o/p', rev: 4 },
        { kind: 'schemas', id: `${EX}c`, project: 'o/p', rev: 1 },
      ]);
      expect(triples).to.contain(`${EX}age`).and.to.contain(`${EX}email`).and.to.contain('subClassOf');
      expect(await imports.pinned(pinned)).to.have.length(triples.length);
    });

    it('refuses a missing or deprecated import by name', async () => {
      for (const [iri, word] of [
        [`${EX}gone`, 'neither'],
        [`${EX}old`, 'deprecated'],
      ] as const) {
        const error = await imports.resolve('o/p', `${EX}a`, `<${EX}a> ${IMPORTS} <${iri}> .\n`).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(Rejection);
        expect((error as Rejection).type).to.equal('InvalidSchemaResolution');
        expect((error as Rejection).reason)
          .to.contain(iri)
          .and.to.contain(word);
      }
    });
  });
});

/** A map of states as the services read them (the embedded layout's, in a test). */
function asStates(map: ReadonlyMap<string, ResourceState>) {
  return { get: async (key: string) => map.get(key), getMany: async (keys: readonly string[]) => keys.map((key) => map.get(key)) };
}
