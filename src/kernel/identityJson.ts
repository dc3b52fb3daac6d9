import { authRejections } from './authRejections.js';
import { identityAddress, type Identity } from './Identity.js';

const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * An identity of a request body. Delta tries the shapes in this order: Anonymous, User, Group,
 * Authenticated; an extra `@type` naming the shape is accepted (wire-iam.md, ACLs).
 */
export const identityFromJson = (json: unknown): Identity => {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw authRejections.malformedIdentity('not an object');
  const o = json as Record<string, unknown>;
  const type = o['@type'];
  if (type !== undefined && !['Anonymous', 'User', 'Group', 'Authenticated'].includes(type as string))
    throw authRejections.malformedIdentity(`unknown @type '${String(type)}'`);
  if (type === 'Anonymous') return { type: 'Anonymous' };
  const { realm, subject, group } = o;
  if (!str(realm)) throw authRejections.malformedIdentity("'realm' is missing");
  if (str(subject) && (type === undefined || type === 'User')) return { type: 'User', realm, subject };
  if (str(group) && (type === undefined || type === 'Group')) return { type: 'Group', realm, group };
  if ((type === undefined || type === 'Authenticated') && subject === undefined && group === undefined) return { type: 'Authenticated', realm };
  throw authRejections.malformedIdentity(`fields do not fit the @type '${String(type)}'`);
};

/** The identity as responses and events render it: `@id`, `@type` and its own fields. */
export const identityToJson = (base: string, id: Identity): Record<string, string> => {
  const { type, ...fields } = id;
  return { '@id': identityAddress(base, id), '@type': type, ...fields };
};
