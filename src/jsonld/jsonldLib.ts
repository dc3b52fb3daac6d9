import jsonldModule from 'jsonld';

/**
 * The jsonld library with the types of the calls we use: its published typings predate v9
 * (`toRDF` with a `format` returns a string).
 */
export interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
  tag?: 'static';
}

export type DocumentLoader = (url: string) => Promise<RemoteDocument>;

interface Options {
  base?: string | null;
  documentLoader?: DocumentLoader;
}

interface JsonLdLib {
  expand(input: unknown, options: Options): Promise<Record<string, unknown>[]>;
  compact(input: unknown, ctx: unknown, options: Options & { skipExpansion?: boolean; compactArrays?: boolean }): Promise<Record<string, unknown>>;
  toRDF(input: unknown, options: Options & { format: 'application/n-quads'; skipExpansion?: boolean }): Promise<string>;
  fromRDF(input: string, options: { format: 'application/n-quads'; useNativeTypes?: boolean }): Promise<Record<string, unknown>[]>;
}

export const jsonld = jsonldModule as unknown as JsonLdLib;
