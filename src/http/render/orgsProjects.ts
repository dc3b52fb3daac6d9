import type { OrgState } from '../../domain/orgs/Org.js';
import type { ProjectState } from '../../domain/projects/Project.js';
import { effectiveMappings } from '../../domain/projects/apiMappings.js';
import { context } from '../../kernel/vocabulary.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { auditFields } from './auditFields.js';

export const orgBody = (s: OrgState, at: Addresses, full = true) => ({
  '@context': [context('metadata'), context('organizations')],
  '@id': at.org(s.label),
  '@type': 'Organization',
  ...(full && s.description !== undefined ? { description: s.description } : {}),
  _label: s.label,
  _uuid: s.uuid,
  _self: at.org(s.label),
  _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/organizations.json',
  ...auditFields(s, at),
});

export const projectBody = (s: ProjectState, at: Addresses, full = true, markedForDeletion = false) => ({
  '@context': [context('metadata'), context('projects')],
  '@id': at.project(`${s.org}/${s.label}`),
  '@type': 'Project',
  ...(full
    ? {
        ...(s.description !== undefined ? { description: s.description } : {}),
        base: s.base,
        vocab: s.vocab,
        apiMappings: s.apiMappings,
        _effectiveApiMappings: effectiveMappings(s).map((m) => ({ _prefix: m.prefix, _namespace: m.namespace })),
      }
    : {}),
  _label: s.label,
  _uuid: s.uuid,
  _organizationLabel: s.org,
  _organizationUuid: s.orgUuid,
  _self: at.project(`${s.org}/${s.label}`),
  _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/projects.json',
  _markedForDeletion: markedForDeletion,
  ...auditFields(s, at),
});
