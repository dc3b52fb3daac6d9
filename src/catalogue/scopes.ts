import type { OrgService } from '../domain/orgs/OrgService.js';
import type { ProjectService } from '../domain/projects/ProjectService.js';
import { resolveId, isIri } from '../domain/projects/apiMappings.js';
import { rejections } from '../domain/rejections.js';
import type { Scopes } from './Listings.js';
import type { TermDictionary } from './TermDictionary.js';
import type { Addresses } from '../kernel/Addresses.js';

/** How listings find their scope and read `locate` values (an `@id`, or a `_self` address). */
export const listingScopes = (orgs: OrgService, projects: ProjectService, addresses: Addresses, terms: TermDictionary): Scopes => ({
  term: (name, project) => terms.predicateFor(name, project ? [`${project.org}/${project.label}`] : undefined),
  project: (ref) => projects.fetch(ref),
  org: (label) => void orgs.fetch(label),
  locate: (value, project) => {
    const self = new RegExp(
      `^${addresses.base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/v1/(?:resources|schemas|storages)/([^/]+)/([^/]+)/(?:[^/]+/)?([^/?#]+)$`,
    ).exec(value);
    if (self) {
      const owner = projects.fetch(`${self[1]}/${self[2]}`);
      const id = resolveId(decodeURIComponent(self[3]!), owner);
      if (id !== undefined) return id;
    }
    const id = project ? resolveId(value, project) : isIri(value) ? value : undefined;
    if (id === undefined) throw rejections.malformedQueryParam(`Query parameter 'locate' must be an id or a '_self' address, got '${value}'.`);
    return id;
  },
});
