import { schemaKey } from '../../kernel/logKeys.js';
import type { ItemKind } from '../resources/ItemKind.js';
import { context, NXV, SHACL_SCHEMA } from '../../kernel/vocabulary.js';

export const SCHEMA_TYPE = `${NXV}Schema`;

/**
 * Schemas: resources of their own kind, constrained by the SHACL schema, read with the SHACL and
 * schema contexts (so `shapes`, `Schema`, `sh:` need no declaration), always typed `Schema`.
 */
export const SCHEMA_KIND: ItemKind = {
  name: 'schemas',
  prefix: 'Schema',
  key: schemaKey,
  defaultSchema: SHACL_SCHEMA,
  contexts: [context('shacl-20170720'), context('schemas-metadata')],
  admitTypes: ({ id, expanded, types }) => {
    if (types.includes(SCHEMA_TYPE)) return types;
    const root = expanded.find((node) => node['@id'] === id);
    if (root) root['@type'] = [...types, SCHEMA_TYPE];
    return [...types, SCHEMA_TYPE];
  },
};
