import { expect } from 'chai';
import { parseSchemaRef, pinnedSchema, schemaBase } from '../../src/domain/schemas/schemaRef.js';
import { loggedEvent, resourceEventOf, RESOURCE_KIND } from '../../src/domain/resources/ItemKind.js';
import { SCHEMA_KIND } from '../../src/domain/schemas/schemaKind.js';
import type { ResourceEvent } from '../../src/domain/resources/ResourceEvent.js';

describe('schema references and kinds', () => {
  it('reads a schema reference pinned to a revision or a tag', () => {
    expect(parseSchemaRef('http://x/s')).to.deep.equal({ iri: 'http://x/s' });
    expect(parseSchemaRef('http://x/s?rev=3')).to.deep.equal({ iri: 'http://x/s', rev: 3 });
    expect(parseSchemaRef('http://x/s?tag=v%201')).to.deep.equal({ iri: 'http://x/s', tag: 'v 1' });
    expect(parseSchemaRef('http://x/s?rev=abc')).to.deep.equal({ iri: 'http://x/s?rev=abc' });
    expect(schemaBase(pinnedSchema('http://x/s', 2))).to.equal('http://x/s');
  });

  it('logs schema events under their own names and folds them back as resource events', () => {
    const event = {
      type: 'ResourceTagAdded',
      id: 'http://x/s',
      project: 'o/p',
      rev: 2,
      instant: 'now',
      subject: 'anonymous',
      tag: 't',
      targetRev: 1,
      types: [],
    } as ResourceEvent;
    expect(loggedEvent(event, RESOURCE_KIND)).to.equal(event);
    const logged = loggedEvent(event, SCHEMA_KIND);
    expect(logged.type).to.equal('SchemaTagAdded');
    expect(resourceEventOf(logged)).to.deep.equal(event);
  });

  it('types every schema Schema, adding the type to the expanded root', () => {
    const expanded = [{ '@id': 'http://x/s' }];
    const types = SCHEMA_KIND.admitTypes({ id: 'http://x/s', expanded, types: [], remoteContexts: [] });
    expect(types).to.deep.equal(['https://bluebrain.github.io/nexus/vocabulary/Schema']);
    expect(expanded[0]).to.deep.equal({ '@id': 'http://x/s', '@type': types });
    expect(() => RESOURCE_KIND.admitTypes({ id: 'x', expanded: [], types, remoteContexts: [] })).to.throw('vocabulary');
  });
});
