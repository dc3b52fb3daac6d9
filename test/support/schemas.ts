import { expect } from 'chai';
import type { client } from './client.js';
import { enc } from './client.js';

/** Payload builders and helpers shared by the schema tests. */
export const EX = 'http://example.com/';
export const SHACL_SCHEMA = 'https://bluebrain.github.io/nexus/schemas/shacl-20170720.ttl';

let counter = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

/** A fresh org and project (with `body` as the project payload); returns the `org/project` path part. */
export const freshProject = async (api: ReturnType<typeof client>, body: Record<string, unknown> = {}) => {
  const org = unique('org');
  const proj = unique('proj');
  const o = await api.put(`/v1/orgs/${org}`, {});
  expect(o.status, o.text).to.equal(201);
  expect((await api.put(`/v1/projects/${org}/${proj}`, body)).status).to.equal(201);
  return `${org}/${proj}`;
};

/** A schema with one node shape targeting `ex:{cls}` and a property shape per `props` entry. */
export const schemaPayload = (id: string, cls: string, props: Record<string, { datatype?: string; minCount?: unknown }>, imports: string[] = []) => ({
  '@context': { ex: EX },
  '@id': id,
  ...(imports.length ? { imports } : {}),
  shapes: [
    {
      '@id': `${id}/shapes/${cls}`,
      '@type': 'sh:NodeShape',
      nodeKind: 'sh:BlankNodeOrIRI',
      targetClass: `ex:${cls}`,
      property: Object.entries(props).map(([path, c]) => ({
        path: `ex:${path}`,
        ...(c.datatype ? { datatype: c.datatype } : {}),
        ...(c.minCount !== undefined ? { minCount: c.minCount } : {}),
      })),
    },
  ],
});

export const thing = (cls: string, fields: Record<string, unknown>, id?: string) => ({
  '@context': { ex: EX },
  ...(id ? { '@id': id } : {}),
  '@type': `ex:${cls}`,
  ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [`ex:${k}`, v])),
});

export const schemaPath = (p: string, id: string) => `/v1/schemas/${p}/${enc(id)}`;
