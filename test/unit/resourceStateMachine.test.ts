import { expect } from 'chai';
import { evaluateResource, nextResource } from '../../src/domain/resources/Resource.js';
import type { ResourceCommand, ResourceState } from '../../src/domain/resources/Resource.js';
import type { ResourceEvent } from '../../src/domain/resources/ResourceEvent.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const ID = 'http://example.com/r';
const P = 'org/proj';
const SCHEMA = 'https://bluebrain.github.io/nexus/schemas/unconstrained.json';
let clock = 0;
const target = () => ({ id: ID, project: P, instant: new Date(Date.UTC(2024, 0, 1) + clock++ * 1000).toISOString(), subject: 'anonymous' });
const content = (source: Record<string, unknown>, links: unknown[] = []) => ({
  schema: SCHEMA,
  schemaProject: P,
  types: ['http://schema.org/Thing'],
  source,
  expanded: [
    {
      '@id': ID,
      '@type': ['http://schema.org/Thing'],
      ...Object.fromEntries(Object.entries(source).map(([k, v]) => [`http://schema.org/${k}`, [{ '@value': v }]])),
      'http://schema.org/knows': links,
    },
  ],
  remoteContexts: [],
});

/** Evaluates and folds, as the service does; `seq` counts log positions. */
let seq = 0;
const run = (state: ResourceState | undefined, cmd: ResourceCommand): ResourceState | undefined => {
  const decision = evaluateResource(state, cmd);
  if (decision instanceof Rejection) throw decision;
  if (decision === null) return state;
  return nextResource(state, decision as ResourceEvent, ++seq);
};
const rejection = (state: ResourceState | undefined, cmd: ResourceCommand): Rejection => {
  const decision = evaluateResource(state, cmd);
  expect(decision).to.be.instanceOf(Rejection);
  return decision as Rejection;
};
const create = (tag?: string) => run(undefined, { type: 'Create', ...target(), ...content({ v: 1 }), ...(tag ? { tag } : {}) })!;

describe('resource state machine (no I/O)', () => {
  it('creates at revision 1, active, with an optional tag on revision 1', () => {
    const state = create('v1');
    expect(state).to.include({ id: ID, project: P, rev: 1, deprecated: false, schema: SCHEMA });
    expect(state.tags).to.deep.equal({ v1: 1 });
    expect(state.createdAt).to.equal(state.updatedAt);
    expect(state.seqs).to.deep.equal([seq]);
    expect(state.contentSeq).to.equal(seq);
    expect(rejection(state, { type: 'Create', ...target(), ...content({ v: 1 }) }).type).to.equal('ResourceAlreadyExists');
  });

  it('refuses every command on a missing resource', () => {
    for (const cmd of [
      { type: 'Update', rev: 1, ...target(), ...content({}) },
      { type: 'Refresh', ...target(), ...content({}) },
      { type: 'Tag', rev: 1, tag: 't', targetRev: 1, ...target() },
      { type: 'DeleteTag', rev: 1, tag: 't', ...target() },
      { type: 'Deprecate', rev: 1, ...target() },
      { type: 'Undeprecate', rev: 1, ...target() },
      { type: 'Delete', ...target() },
    ] as ResourceCommand[])
      expect(rejection(undefined, cmd).type, cmd.type).to.equal('ResourceNotFound');
  });

  it('updates with the current rev; a stale rev is IncorrectRev with provided and expected', () => {
    const s1 = create();
    const s2 = run(s1, { type: 'Update', rev: 1, ...target(), ...content({ v: 2 }) })!;
    expect(s2.rev).to.equal(2);
    expect(s2.createdAt).to.equal(s1.createdAt);
    expect(s2.updatedAt > s1.updatedAt).to.equal(true);
    expect(s2.contentSeq).to.equal(seq);
    expect(s2.seqs).to.have.length(2);
    const stale = rejection(s2, { type: 'Update', rev: 1, ...target(), ...content({ v: 3 }) });
    expect(stale.type).to.equal('IncorrectRev');
    expect(stale.fields).to.deep.equal({ provided: 1, expected: 2 });
    expect(rejection(s2, { type: 'Deprecate', rev: 3, ...target() }).fields).to.deep.equal({ provided: 3, expected: 2 });
  });

  it('ignores an identical update, but still applies its tag to the current revision', () => {
    const s1 = create();
    expect(evaluateResource(s1, { type: 'Update', rev: 1, ...target(), ...content({ v: 1 }) })).to.equal(null);
    const decision = evaluateResource(s1, { type: 'Update', rev: 1, tag: 'same', ...target(), ...content({ v: 1 }) }) as ResourceEvent;
    expect(decision.type).to.equal('ResourceTagAdded');
    expect(decision.rev).to.equal(1);
    const s = nextResource(s1, decision, ++seq)!;
    expect(s.rev).to.equal(1);
    expect(s.tags).to.deep.equal({ same: 1 });
    // the same tag again is nothing at all
    expect(evaluateResource(s, { type: 'Update', rev: 1, tag: 'same', ...target(), ...content({ v: 1 }) })).to.equal(null);
    // an update with a tag names the new revision
    const s2 = run(s, { type: 'Update', rev: 1, tag: 'next', ...target(), ...content({ v: 2 }) })!;
    expect(s2.tags).to.deep.equal({ same: 1, next: 2 });
  });

  it('refreshes only when something changed', () => {
    const s1 = create();
    expect(evaluateResource(s1, { type: 'Refresh', ...target(), ...content({ v: 1 }) })).to.equal(null);
    const s2 = run(s1, { type: 'Refresh', ...target(), ...content({ v: 9 }) })!;
    expect(s2.rev).to.equal(2);
  });

  it('tags an existing revision, moves and removes tags', () => {
    const s2 = run(create(), { type: 'Update', rev: 1, ...target(), ...content({ v: 2 }) })!;
    const s3 = run(s2, { type: 'Tag', rev: 2, tag: 'old', targetRev: 1, ...target() })!;
    expect(s3.rev).to.equal(3);
    expect(s3.tags).to.deep.equal({ old: 1 });
    expect(s3.contentSeq).to.equal(s2.contentSeq);
    for (const targetRev of [0, 4, -1]) {
      const r = rejection(s3, { type: 'Tag', rev: 3, tag: 'x', targetRev, ...target() });
      expect(r.type).to.equal('RevisionNotFound');
    }
    const s4 = run(s3, { type: 'Tag', rev: 3, tag: 'old', targetRev: 3, ...target() })!;
    expect(s4.tags).to.deep.equal({ old: 3 });
    expect(rejection(s4, { type: 'DeleteTag', rev: 4, tag: 'nope', ...target() }).type).to.equal('TagNotFound');
    const s5 = run(s4, { type: 'DeleteTag', rev: 4, tag: 'old', ...target() })!;
    expect(s5.rev).to.equal(5);
    expect(s5.tags).to.deep.equal({});
  });

  it('deprecates, locks, and undeprecates', () => {
    const s1 = create();
    expect(rejection(s1, { type: 'Undeprecate', rev: 1, ...target() }).type).to.equal('ResourceIsNotDeprecated');
    const s2 = run(s1, { type: 'Deprecate', rev: 1, ...target() })!;
    expect(s2).to.include({ rev: 2, deprecated: true });
    for (const cmd of [
      { type: 'Update', rev: 2, ...target(), ...content({ v: 5 }) },
      { type: 'Refresh', ...target(), ...content({ v: 5 }) },
      { type: 'Tag', rev: 2, tag: 't', targetRev: 1, ...target() },
      { type: 'DeleteTag', rev: 2, tag: 't', ...target() },
      { type: 'Deprecate', rev: 2, ...target() },
      { type: 'UpdateSchema', schema: 'http://s', schemaProject: P, ...target() },
    ] as ResourceCommand[])
      expect(rejection(s2, cmd).type, cmd.type).to.equal('ResourceIsDeprecated');
    // a stale rev is reported before the deprecation
    expect(rejection(s2, { type: 'Update', rev: 1, ...target(), ...content({ v: 5 }) }).type).to.equal('IncorrectRev');
    const s3 = run(s2, { type: 'Undeprecate', rev: 2, ...target() })!;
    expect(s3).to.include({ rev: 3, deprecated: false });
    expect(run(s3, { type: 'Update', rev: 3, ...target(), ...content({ v: 5 }) })!.rev).to.equal(4);
  });

  it('deletes permanently from any state', () => {
    const s1 = create();
    const deleted = evaluateResource(s1, { type: 'Delete', ...target() }) as ResourceEvent;
    expect(deleted.type).to.equal('ResourceDeleted');
    expect(nextResource(s1, deleted, ++seq)).to.equal(undefined);
    const dep = run(s1, { type: 'Deprecate', rev: 1, ...target() })!;
    expect((evaluateResource(dep, { type: 'Delete', ...target() }) as ResourceEvent).type).to.equal('ResourceDeleted');
    // and the id can be created again
    expect((evaluateResource(undefined, { type: 'Create', ...target(), ...content({ v: 1 }) }) as ResourceEvent).rev).to.equal(1);
  });

  it('changes only the schema with update-schema', () => {
    const s1 = create();
    expect(evaluateResource(s1, { type: 'UpdateSchema', schema: SCHEMA, schemaProject: P, ...target() })).to.equal(null);
    const s2 = run(s1, { type: 'UpdateSchema', schema: 'http://example.com/schema', schemaProject: P, ...target() })!;
    expect(s2).to.include({ rev: 2, schema: 'http://example.com/schema' });
    expect(s2.contentSeq).to.equal(s1.contentSeq);
  });

  it('keeps the links of the current content', () => {
    const s1 = run(undefined, { type: 'Create', ...target(), ...content({ v: 1 }, [{ '@id': 'http://example.com/other' }]) })!;
    expect(s1.links).to.deep.equal([{ target: 'http://example.com/other', paths: ['http://schema.org/knows'] }]);
    const s2 = run(s1, { type: 'Update', rev: 1, ...target(), ...content({ v: 1 }) })!;
    expect(s2.links).to.deep.equal([]);
  });

  it('rebuilds any earlier state by folding the events up to a revision', () => {
    const events: ResourceEvent[] = [];
    const record = (state: ResourceState | undefined, cmd: ResourceCommand) => {
      const d = evaluateResource(state, cmd) as ResourceEvent;
      events.push(d);
      return nextResource(state, d, events.length);
    };
    let s = record(undefined, { type: 'Create', ...target(), ...content({ v: 1 }) });
    s = record(s, { type: 'Update', rev: 1, ...target(), ...content({ v: 2 }) });
    s = record(s, { type: 'Tag', rev: 2, tag: 't', targetRev: 1, ...target() });
    let folded: ResourceState | undefined;
    events.slice(0, 2).forEach((e, i) => (folded = nextResource(folded, e, i + 1)));
    expect(folded!.rev).to.equal(2);
    expect(folded!.tags).to.deep.equal({});
    expect(s!.tags).to.deep.equal({ t: 1 });
  });
});
