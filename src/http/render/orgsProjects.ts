import type { OrgState } from '../../domain/orgs/Org.js';
import type { ProjectState } from '../../domain/projects/Project.js';
import { effectiveMappings } from '../../domain/projects/apiMappings.js';
import { context } from '../../domain/vocabulary.js';
import { orgSelf, projectSelf, subjectIri } from './addresses.js';
import type { Audit } from '../../domain/Metadata.js';

const audit = (s: Audit, base: string) => ({
  _rev: s.rev,
  _deprecated: s.deprecated,
  _createdAt: s.createdAt,
  _createdBy: subjectIri(base, s.createdBy),
  _updatedAt: s.updatedAt,
  _updatedBy: subjectIri(base, s.updatedBy),
});

export const orgBody = (s: OrgState, base: string, full = true) => ({
  '@context': [context('metadata'), context('organizations')],
  '@id': orgSelf(base, s.label),
  '@type': 'Organization',
  ...(full && s.description !== undefined ? { description: s.description } : {}),
  _label: s.label,
  _uuid: s.uuid,
  _self: orgSelf(base, s.label),
  _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/organizations.json',
  ...audit(s, base),
});

export const projectBody = (s: ProjectState, base: string, full = true) => ({
  '@context': [context('metadata'), context('projects')],
  '@id': projectSelf(base, `${s.org}/${s.label}`),
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
  _self: projectSelf(base, `${s.org}/${s.label}`),
  _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/projects.json',
  _markedForDeletion: false,
  ...audit(s, base),
});
