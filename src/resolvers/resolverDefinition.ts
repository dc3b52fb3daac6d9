import type { JsonObject } from '../kernel/json.js';
import type { ProjectRef } from '../kernel/labels.js';
import { NXV, SCHEMAS, XSD } from '../kernel/vocabulary.js';
import { versionedDefinition } from '../domain/versionedDefinition.js';
import { fieldsContent } from '../domain/versionedParts.js';
import type { ResolverCommand, ResolverEvent, ResolverFields, ResolverType, ResolverValue } from './Resolver.js';
import { evaluateResolver, nextResolver } from './Resolver.js';
import { resolverRejections } from './resolverRejections.js';

declare module '../events/EventLog.js' {
  interface KindNames {
    resolvers: true;
  }
}

export const RESOLVERS_SCHEMA = `${SCHEMAS}resolvers.json`;
export const DEFAULT_RESOLVER = `${NXV}defaultInProject`;

export const resolverKey = (project: ProjectRef, id: string): string => `resolvers/${project}/${id}`;
const resolverTypes = (type: ResolverType): string[] => [`${NXV}Resolver`, `${NXV}${type}`];

/** The resolver as expanded JSON-LD: what its revision graph holds and what its links are read from. */
const resolverExpanded = (id: string, f: ResolverFields): JsonObject[] => {
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

/** Resolvers: kept whole per revision, a revision graph and a catalogue row each; events rendered as Delta's (sse.json). */
export const resolverDefinition = versionedDefinition<ResolverValue, ResolverCommand, ResolverEvent>({
  kind: 'resolvers',
  key: resolverKey,
  noun: 'resolver',
  rejections: resolverRejections,
  evaluate: evaluateResolver,
  fold: nextResolver,
  streamed: { context: 'resolvers', idField: '_resolverId', types: (e) => resolverTypes(e.resolverType) },
  content: fieldsContent({ expanded: resolverExpanded, types: (f) => resolverTypes(f.type), schema: RESOLVERS_SCHEMA }),
});
