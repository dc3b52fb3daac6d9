/** Fixed IRIs that existing clients of the API expect (wire-format.md, "Constants"). */
export const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
export const CONTEXTS = 'https://bluebrain.github.io/nexus/contexts/';
export const SCHEMAS = 'https://bluebrain.github.io/nexus/schemas/';
export const UNCONSTRAINED = `${SCHEMAS}unconstrained.json`;
export const SHACL_SCHEMA = `${SCHEMAS}shacl-20170720.ttl`;
export const STORAGES_SCHEMA = `${SCHEMAS}storages.json`;
export const FILES_SCHEMA = `${SCHEMAS}files.json`;
export const DEFAULT_STORAGE = `${NXV}diskStorageDefault`;
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';

export const context = (name: string): string => `${CONTEXTS}${name}.json`;
