import type { LogEvent } from '../../events/EventLog.js';
import type { CommandDefinition, KindDefinition } from '../../domain/KindDefinition.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { rejections } from '../../domain/rejections.js';
import { context, NXV, SCHEMAS, XSD } from '../../kernel/vocabulary.js';
import { versionedListed, versionedRevision } from '../../domain/versionedParts.js';
import type { VersionedContent } from '../../domain/versionedParts.js';
import type { ResolverCommand, ResolverEvent, ResolverFields, ResolverState, ResolverType, ResolverValue } from './Resolver.js';
import { evaluateResolver, nextResolver } from './Resolver.js';
import { resolverRejections } from './resolverRejections.js';

declare module '../../events/EventLog.js' {
  interface KindNames {
    resolvers: true;
  }
}

export const RESOLVERS_SCHEMA = `${SCHEMAS}resolvers.json`;
export const DEFAULT_RESOLVER = `${NXV}defaultInProject`;

export const resolverKey = (project: ProjectRef, id: string): string => `resolvers/${project}/${id}`;
export const resolverTypes = (type: ResolverType): string[] => [`${NXV}Resolver`, `${NXV}${type}`];

/** The resolver as expanded JSON-LD: what its revision graph holds and what its links are read from. */
export const resolverExpanded = (id: string, f: ResolverFields): JsonObject[] => {
  const node: JsonObject = {
    '@id': id,
    '@type': resolverTypes(f.type),
    [`${NXV}priority`]: [{ '@value': f.priority, '@type': `${XSD}integer` }],
  };
  if (f.name !== undefined) node[`${NXV}name`] = [{ '@value': f.name }];
  if (f.description !== undefined) node[`${NXV}description`] = [{ '@value': f.description }];
  if (f.projects) node[`${NXV}projects`] = f.projects.map((p) => ({ '@value': p }));
  if (f.resourceTypes?.length) node[`${NXV}resourceTypes`] = f.resourceTypes.map((t) => ({ '@id': t }));
  if (f.identityResolution && 'useCurrentCaller' in f.identityResolution) node[`${NXV}useCurrentCaller`] = [{ '@value': true }];
  return [node];
};

const eventOf = (logged: LogEvent) => logged.event as unknown as ResolverEvent;

const content: VersionedContent<ResolverValue> = {
  expanded: (id, value) => resolverExpanded(id, value.fields),
  source: (value) => value.source,
  types: (value) => resolverTypes(value.fields.type),
  schema: RESOLVERS_SCHEMA,
};

/** Resolvers: kept whole per revision, a revision graph and a catalogue row each; events rendered as Delta's (sse.json). */
export const resolverDefinition: KindDefinition<ResolverState> & CommandDefinition<ResolverState, ResolverCommand, ResolverEvent> = {
  kind: 'resolvers',
  stateKey: (logged) => logged.key,
  keyOf: (state) => resolverKey(state.project, state.id),
  next: (state, logged) => nextResolver(state, eventOf(logged)),
  evaluate: evaluateResolver,
  conflict: (state, cmd, actual) =>
    state ? rejections.incorrectRev('rev' in cmd ? cmd.rev : state.rev, actual) : resolverRejections.alreadyExists(cmd.id, cmd.project),
  render: (logged, look) => {
    const e = eventOf(logged);
    const uuids = look.projectUuids(e.project);
    return {
      '@context': [context('metadata'), context('resolvers')],
      '@type': e.type,
      _resolverId: e.id,
      _resourceId: e.id,
      ...('source' in e ? { _source: e.source } : {}),
      _types: resolverTypes(e.resolverType),
      _constrainedBy: RESOLVERS_SCHEMA,
      _project: e.project,
      _instant: e.instant,
      ...(uuids ? { _projectUuid: uuids.uuid, _organizationUuid: uuids.orgUuid } : {}),
      _rev: e.rev,
      _subject: look.addresses.subject(e.subject),
      ...(e.type === 'ResolverTagAdded' ? { tag: e.tag, targetRev: e.targetRev } : {}),
    };
  },
  revision: versionedRevision(content),
  listed: versionedListed(content),
};
