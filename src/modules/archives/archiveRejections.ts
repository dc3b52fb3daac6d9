import { Rejection } from '../../kernel/Rejection.js';
import type { RejectionTypes } from '../../kernel/Rejection.js';

/** Archives: Delta 1.10's rejections (ArchiveRejection.scala), names, reasons and statuses. */
export const archiveRejections = {
  alreadyExists: (id: string, project: string) => new Rejection('ResourceAlreadyExists', `Resource '${id}' already exists in project '${project}'.`),
  /** Delta renders `ArchiveNotFound` with the type `ResourceNotFound`; an expired archive is not found. */
  notFound: (id: string, project: string) => new Rejection('ResourceNotFound', `Archive '${id}' not found in project '${project}'.`),
  entryNotFound: (ref: string, project: string) => new Rejection('ResourceNotFound', `The resource '${ref}' was not found in project '${project}'.`),
  invalidArchiveId: (id: string) => new Rejection('InvalidArchiveId', `Archive identifier '${id}' cannot be expanded to an Iri.`),
  invalidResourceCollection: (duplicates: string[], invalids: string[], longIds: string[]) =>
    new Rejection(
      'InvalidResourceCollection',
      [
        duplicates.length ? `The paths '${duplicates.join(', ')}' have been used multiple times in the archive.` : '',
        invalids.length
          ? `The paths '${invalids.join(', ')}' must be relative paths of printable characters, without '\\', a drive letter, or an empty, '.' or '..' segment, with a file path prefix less than 154 characters long and a file path name less than 99 characters long.`
          : '',
        longIds.length ? `The resource ids '${longIds.join(', ')}' generate a file name exceeding 99 characters, please define a path for each of them.` : '',
      ]
        .filter(Boolean)
        .join('\n'),
      { duplicates, invalids, longIds },
    ),
  /** A caller or a project holds as many archives, or bytes of them, as it may: more once the oldest expires (`retryAfter`, seconds, becomes `Retry-After`). */
  quotaReached: (over: 'caller' | 'project', limit: 'count' | 'bytes', max: number, retryAfter?: number) =>
    new Rejection(
      'ArchiveQuotaReached',
      `${over === 'caller' ? 'You hold' : 'This project holds'} ${limit === 'count' ? `${max} archives` : `archives of ${max} bytes in all`}, the most ${over === 'caller' ? 'one caller' : 'one project'} may hold at once${
        retryAfter === undefined ? '; this archive alone is larger: name fewer entries' : `: retry after ${retryAfter} s, when the oldest of them expires`
      }.`,
      { scope: over, limit, max, ...(retryAfter !== undefined ? { retryAfter } : {}) },
    ),
  invalidFileSelf: (value: string) => new Rejection('InvalidFileSelf', `'${value}' is not the address of a file of this service.`),
  decodingFailed: (reason: string) => new Rejection('DecodingFailed', reason),
};

export const archiveStatuses = {
  ResourceAlreadyExists: 409,
  ResourceNotFound: 404,
  InvalidArchiveId: 400,
  InvalidResourceCollection: 400,
  InvalidFileSelf: 400,
  ArchiveQuotaReached: 429,
  DecodingFailed: 400,
} satisfies Record<RejectionTypes<typeof archiveRejections>, number>;
