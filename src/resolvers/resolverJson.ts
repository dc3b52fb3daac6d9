import type { JsonObject } from '../kernel/json.js';
import { idSegment } from '../kernel/Addresses.js';
import type { Addresses } from '../kernel/Addresses.js';
import { context } from '../kernel/vocabulary.js';
import { auditFields } from '../http/render/auditFields.js';
import type { ResolverState } from './Resolver.js';
import { RESOLVERS_SCHEMA } from './resolverDefinition.js';

const resolverSelf = (at: Addresses, s: Pick<ResolverState, 'project' | 'id'>) => `${at.base}/v1/resolvers/${s.project}/${idSegment(s.id)}`;

const types = (s: ResolverState) => ['Resolver', s.value.fields.type];

const metadataFields = (s: ResolverState, at: Addresses) => {
  const self = resolverSelf(at, s);
  return {
    _self: self,
    _constrainedBy: RESOLVERS_SCHEMA,
    _incoming: `${self}/incoming`,
    _outgoing: `${self}/outgoing`,
    _project: s.project,
    ...auditFields(s, at),
  };
};

/** Write responses and listing entries (Delta's created.json): metadata only. */
export const resolverMetadata = (s: ResolverState, at: Addresses): JsonObject => ({
  '@context': [context('resolvers-metadata'), context('metadata')],
  '@id': s.id,
  '@type': types(s),
  ...metadataFields(s, at),
});

/** Fetch (Delta's fetched.json): the resolver's fields, identities with their `@type`, then the metadata. */
export const resolverBody = (s: ResolverState, at: Addresses): JsonObject => {
  const f = s.value.fields;
  const resolution = f.identityResolution;
  return {
    '@context': [context('resolvers'), context('metadata')],
    '@id': s.id,
    '@type': types(s),
    ...(f.name !== undefined ? { name: f.name } : {}),
    ...(f.description !== undefined ? { description: f.description } : {}),
    priority: f.priority,
    ...(f.projects ? { projects: f.projects } : {}),
    ...(f.resourceTypes ? { resourceTypes: f.resourceTypes } : {}),
    ...(resolution && 'identities' in resolution ? { identities: resolution.identities.map(({ type, ...rest }) => ({ '@type': type, ...rest })) } : {}),
    ...(resolution && 'useCurrentCaller' in resolution ? { useCurrentCaller: true } : {}),
    ...(f.type === 'CrossProject' && resolution && 'identities' in resolution ? { useCurrentCaller: false } : {}),
    ...metadataFields(s, at),
  };
};
