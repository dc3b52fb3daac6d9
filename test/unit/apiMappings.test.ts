import { expect } from 'chai';
import { DEFAULT_MAPPINGS, effectiveMappings, isIri, resolveId } from '../../src/domain/projects/apiMappings.js';

const BASE = 'http://localhost/v1/resources/org/proj/_/';
const project = (apiMappings = [{ prefix: 'ex', namespace: 'http://example.com/ns/' }]) => ({ apiMappings, base: BASE });

describe('api mappings and id segments', () => {
  it('has the default aliases of the wire format', () => {
    const prefixes = Object.fromEntries(DEFAULT_MAPPINGS.map((m) => [m.prefix, m.namespace]));
    expect(prefixes).to.deep.equal({
      _: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
      resource: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
      schema: 'https://bluebrain.github.io/nexus/schemas/shacl-20170720.ttl',
      nxv: 'https://bluebrain.github.io/nexus/vocabulary/',
      defaultStorage: 'https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault',
    });
  });

  it("lets the project's own mappings win over the defaults", () => {
    const mappings = effectiveMappings({ apiMappings: [{ prefix: 'schema', namespace: 'http://schema.org/' }] });
    expect(mappings.filter((m) => m.prefix === 'schema')).to.deep.equal([{ prefix: 'schema', namespace: 'http://schema.org/' }]);
    expect(resolveId('schema:Person', { apiMappings: [{ prefix: 'schema', namespace: 'http://schema.org/' }], base: BASE })).to.equal(
      'http://schema.org/Person',
    );
    expect(resolveId('schema', project())).to.equal('https://bluebrain.github.io/nexus/schemas/shacl-20170720.ttl');
  });

  it('resolves aliases, CURIEs, absolute IRIs and relative values, in that order', () => {
    const p = project();
    expect(resolveId('_', p)).to.equal('https://bluebrain.github.io/nexus/schemas/unconstrained.json');
    expect(resolveId('defaultStorage', p)).to.equal('https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault');
    expect(resolveId('nxv:thing', p)).to.equal('https://bluebrain.github.io/nexus/vocabulary/thing');
    expect(resolveId('ex:one', p)).to.equal('http://example.com/ns/one');
    expect(resolveId('ex', p)).to.equal('http://example.com/ns/');
    expect(resolveId('http://example.com/a/b?c#d', p)).to.equal('http://example.com/a/b?c#d');
    expect(resolveId('urn:uuid:1234', p)).to.equal('urn:uuid:1234');
    expect(resolveId('relative', p)).to.equal(`${BASE}relative`);
    expect(resolveId('with space', p)).to.equal(`${BASE}with space`);
    expect(resolveId('a#frag', p)).to.equal(`${BASE}a#frag`);
    expect(resolveId('unknown:thing', p)).to.equal('unknown:thing');
  });

  it('refuses what is not an IRI', () => {
    const p = project();
    expect(resolveId('', p)).to.equal(undefined);
    expect(resolveId('http://example.com/<x>', p)).to.equal(undefined);
    expect(resolveId('a"b', p)).to.equal(undefined);
    expect(resolveId('x\ny', p)).to.equal(undefined);
    expect(isIri('http://example.com/x')).to.equal(true);
    expect(isIri('relative')).to.equal(false);
    expect(isIri('1abc:x')).to.equal(false);
    expect(isIri('http://a/{b}')).to.equal(false);
  });
});
