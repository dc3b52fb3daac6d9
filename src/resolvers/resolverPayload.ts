import type { Identity } from '../kernel/Caller.js';
import type { JsonObject } from '../kernel/json.js';
import { isLabel } from '../kernel/labels.js';
import { identityFromJson } from '../kernel/identityJson.js';
import { Rejection } from '../kernel/Rejection.js';
import { NXV } from '../kernel/vocabulary.js';
import type { ResolverFields, ResolverType } from './Resolver.js';
import { resolverRejections } from './resolverRejections.js';

const TYPES: Record<string, ResolverType> = {
  InProject: 'InProject',
  CrossProject: 'CrossProject',
  'nxv:InProject': 'InProject',
  'nxv:CrossProject': 'CrossProject',
  [`${NXV}InProject`]: 'InProject',
  [`${NXV}CrossProject`]: 'CrossProject',
};
const RESOLVER = new Set(['Resolver', 'nxv:Resolver', `${NXV}Resolver`]);

const fail = (reason: string): never => {
  throw resolverRejections.decodingFailed(reason);
};

const typeOf = (source: JsonObject): ResolverType => {
  const raw = source['@type'];
  const types = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((t) => !(typeof t === 'string' && RESOLVER.has(t)));
  const known = [...new Set(types.map((t) => (typeof t === 'string' ? TYPES[t] : undefined)))];
  if (known.length !== 1 || known[0] === undefined) return fail("'@type' must name exactly one of 'InProject' or 'CrossProject'.");
  return known[0];
};

const strings = (source: JsonObject, field: string): string[] | undefined => {
  const raw = source[field];
  if (raw === undefined) return undefined;
  const list = Array.isArray(raw) ? raw : [raw];
  if (!list.every((v): v is string => typeof v === 'string' && v !== '')) return fail(`'${field}' must be a list of non-empty strings.`);
  return list;
};

const optionalString = (source: JsonObject, field: string): string | undefined => {
  const raw = source[field];
  if (raw === undefined) return undefined;
  return typeof raw === 'string' ? raw : fail(`'${field}' must be a string.`);
};

/**
 * The projects a CrossProject resolver may name: each resolution may walk them all (an ACL check
 * and a lookup each), and 18,000 of them took a second per resolution. Delta sets no bound.
 */
const MAX_RESOLVER_PROJECTS = 100;

/**
 * A resolver payload read as Delta decodes it: `@type` InProject or CrossProject, `priority` 0..1000;
 * a CrossProject one names at least one `projects` (`org/project`) and either `identities` or
 * `useCurrentCaller: true`, never both; at most `MAX_RESOLVER_PROJECTS` projects. `expand` turns a `resourceTypes` entry into an IRI (the
 * project's prefixes), undefined when it cannot.
 */
export const resolverFields = (source: JsonObject, expand: (value: string) => string | undefined): ResolverFields => {
  const type = typeOf(source);
  const priority = source['priority'];
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 1000)
    return fail("'priority' must be an integer between 0 and 1000.");
  const name = optionalString(source, 'name');
  const description = optionalString(source, 'description');
  const common = { priority, ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}) };
  if (type === 'InProject') return { type, ...common };
  const raw = source['projects'];
  if (Array.isArray(raw) && raw.length > MAX_RESOLVER_PROJECTS) throw resolverRejections.tooManyProjects(raw.length, MAX_RESOLVER_PROJECTS);
  const projects = strings(source, 'projects') ?? [];
  if (projects.length === 0) return fail("A 'CrossProject' resolver needs at least one project in 'projects'.");
  for (const p of projects) {
    const [org, project, ...rest] = p.split('/');
    if (rest.length || org === undefined || project === undefined || !isLabel(org) || !isLabel(project))
      return fail(`'${p}' is not a project reference 'org/project'.`);
  }
  const resourceTypes = (strings(source, 'resourceTypes') ?? []).map((t) => expand(t) ?? fail(`Resource type '${t}' cannot be expanded to an Iri.`));
  const useCurrentCaller = source['useCurrentCaller'];
  if (useCurrentCaller !== undefined && typeof useCurrentCaller !== 'boolean') return fail("'useCurrentCaller' must be a boolean.");
  const rawIdentities = source['identities'];
  if (useCurrentCaller === true && rawIdentities !== undefined) return fail("'identities' and 'useCurrentCaller: true' cannot both be set.");
  let identityResolution: ResolverFields['identityResolution'];
  if (useCurrentCaller === true) identityResolution = { useCurrentCaller: true };
  else {
    if (!Array.isArray(rawIdentities)) return fail("A 'CrossProject' resolver needs 'identities' (a list) or 'useCurrentCaller: true'.");
    identityResolution = { identities: rawIdentities.map(identity) };
  }
  return { type, ...common, projects: [...new Set(projects)], resourceTypes, identityResolution };
};

const identity = (json: unknown): Identity => {
  try {
    return identityFromJson(json);
  } catch (error) {
    if (error instanceof Rejection) return fail(`Invalid identity: ${error.reason}`);
    throw error;
  }
};
