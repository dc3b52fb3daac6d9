import type { Request } from 'express';
import { rejections } from '../domain/rejections.js';

type Query = Request['query'];

/** One value of a query parameter; repeating a single-valued parameter is a mistake. */
export const single = (query: Query, name: string): string | undefined => {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw rejections.malformedQueryParam(`Query parameter '${name}' must be given once.`);
  return value;
};

/** Every value of a repeatable parameter. */
export const many = (query: Query, name: string): string[] => {
  const value = query[name];
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v): v is string => typeof v === 'string')) throw rejections.malformedQueryParam(`Query parameter '${name}' is malformed.`);
  return values;
};

export const integer = (query: Query, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined => {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw rejections.malformedQueryParam(
      `Query parameter '${name}' must be an integer${max < Number.MAX_SAFE_INTEGER ? ` between ${min} and ${max}` : ` of at least ${min}`}, got '${value}'.`,
    );
  return Number(value);
};

export const bool = (query: Query, name: string): boolean | undefined => {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw rejections.malformedQueryParam(`Query parameter '${name}' must be 'true' or 'false', got '${value}'.`);
  return value === 'true';
};

/** The `rev` every update-like operation requires. */
export const requiredRev = (query: Query): number => {
  const rev = integer(query, 'rev', 1);
  if (rev === undefined) throw rejections.malformedQueryParam("Query parameter 'rev' is required.");
  return rev;
};

/** `rev` or `tag`, never both. */
export const selector = (query: Query): { rev?: number; tag?: string } => {
  const rev = integer(query, 'rev', 1);
  const tag = single(query, 'tag');
  if (rev !== undefined && tag !== undefined) throw rejections.malformedQueryParam("Query parameters 'rev' and 'tag' cannot be used together.");
  return { ...(rev === undefined ? {} : { rev }), ...(tag === undefined ? {} : { tag }) };
};

export const tagName = (query: Query): string | undefined => {
  const tag = single(query, 'tag');
  const problem = tag === undefined ? undefined : tagProblem(tag);
  if (problem !== undefined) throw rejections.malformedQueryParam(`Query parameter 'tag' is invalid: ${problem}.`);
  return tag;
};

/** Longest tag accepted. */
export const MAX_TAG_LENGTH = 64;

/** Which rule a tag breaks, said for the caller; undefined for a valid tag. */
export const tagProblem = (tag: string): string | undefined => {
  if (tag.length === 0) return 'a tag must not be empty';
  if (tag.length > MAX_TAG_LENGTH) return `a tag has at most ${MAX_TAG_LENGTH} characters, this one has ${tag.length}`;
  const control = /[\u0000-\u001f\u007f]/.exec(tag);
  if (control)
    return `a tag must not hold control characters (such as CR or LF), this one holds U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at position ${control.index}`;
  return undefined;
};
