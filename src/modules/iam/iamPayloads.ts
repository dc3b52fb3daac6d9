import type { AclEntry } from './acls/Acl.js';
import type { RealmFields } from './realms/Realm.js';
import { rejections } from '../../domain/rejections.js';
import { identityFromJson } from '../../kernel/identityJson.js';

type Json = Record<string, unknown>;

const object = (body: unknown, what: string): Json => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw rejections.malformedContent(`The ${what} payload must be a JSON object.`);
  return body as Json;
};

const strings = (value: unknown, field: string): string[] => {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw rejections.malformedContent(`'${field}' must be an array of strings.`);
  return value;
};

const address = (value: unknown, field: string): string => {
  if (typeof value !== 'string' || !URL.canParse(value)) throw rejections.malformedContent(`'${field}' must be an absolute address.`);
  return value;
};

/** `{"name", "openIdConfig", "logo"?, "acceptedAudiences"?}` (wire-iam.md, Realms). */
export const realmFieldsFromJson = (body: unknown): RealmFields => {
  const o = object(body, 'realm');
  if (typeof o['name'] !== 'string' || o['name'].trim() === '') throw rejections.malformedContent("'name' must be a non-empty string.");
  const fields: RealmFields = { name: o['name'], openIdConfig: address(o['openIdConfig'], 'openIdConfig') };
  if (o['logo'] !== undefined) fields.logo = address(o['logo'], 'logo');
  if (o['acceptedAudiences'] !== undefined) {
    const audiences = strings(o['acceptedAudiences'], 'acceptedAudiences');
    if (audiences.length === 0) throw rejections.malformedContent("'acceptedAudiences' must not be empty when given.");
    fields.acceptedAudiences = [...new Set(audiences)];
  }
  return fields;
};

/** `{"acl": [{"identity", "permissions"}]}`; PATCH adds `"@type": "Append" | "Subtract"`. */
export const aclFromJson = (body: unknown, patch: boolean): { op: 'Replace' | 'Append' | 'Subtract'; acl: AclEntry[] } => {
  const o = object(body, 'ACL');
  const type = o['@type'];
  const op = patch ? type : (type ?? 'Replace');
  if (patch ? op !== 'Append' && op !== 'Subtract' : op !== 'Replace')
    throw rejections.malformedContent(patch ? "'@type' must be 'Append' or 'Subtract'." : "'@type' may only be 'Replace'.");
  if (!Array.isArray(o['acl'])) throw rejections.malformedContent("'acl' must be an array.");
  const acl = o['acl'].map((entry) => {
    const e = object(entry, 'ACL entry');
    return { identity: identityFromJson(e['identity']), permissions: strings(e['permissions'], 'permissions') };
  });
  return { op: op as 'Replace' | 'Append' | 'Subtract', acl };
};

/** `{"permissions": [...]}`; PATCH adds `"@type": "Append" | "Subtract"`, PUT may say `"Replace"`. */
export const permissionsFromJson = (body: unknown, patch: boolean): { op: 'Replace' | 'Append' | 'Subtract'; permissions: string[] } => {
  const o = object(body, 'permissions');
  const type = o['@type'];
  const op = patch ? type : (type ?? 'Replace');
  if (patch ? op !== 'Append' && op !== 'Subtract' : op !== 'Replace')
    throw rejections.malformedContent(patch ? "'@type' must be 'Append' or 'Subtract'." : "'@type' may only be 'Replace'.");
  return { op: op as 'Replace' | 'Append' | 'Subtract', permissions: strings(o['permissions'], 'permissions') };
};
