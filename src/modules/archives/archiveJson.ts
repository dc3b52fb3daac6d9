import type { Addresses } from '../../kernel/Addresses.js';
import { idSegment } from '../../kernel/Addresses.js';
import type { JsonObject } from '../../kernel/json.js';
import { context, SCHEMAS } from '../../kernel/vocabulary.js';
import type { ArchiveRecord } from './Archive.js';

const ARCHIVES_SCHEMA = `${SCHEMAS}archives.json`;

export const archiveSelf = (at: Addresses, a: Pick<ArchiveRecord, 'project' | 'id'>) => `${at.base}/v1/archives/${a.project}/${idSegment(a.id)}`;

/** What Delta renders of every archive (created.json): never updated, so revision 1 for ever. */
const metadataFields = (a: ArchiveRecord, at: Addresses) => ({
  _self: archiveSelf(at, a),
  _constrainedBy: ARCHIVES_SCHEMA,
  _project: a.project,
  _rev: 1,
  _deprecated: false,
  _createdAt: a.createdAt,
  _createdBy: at.subject(a.createdBy),
  _updatedAt: a.createdAt,
  _updatedBy: at.subject(a.createdBy),
});

/** What creating answers (Delta's `ArchiveRoutes.emitMetadata`): the metadata, `_expiresInSeconds` included. */
export const archiveMetadata = (a: ArchiveRecord, at: Addresses, expiresInSeconds: number): JsonObject => ({
  '@context': [context('archives-metadata'), context('metadata')],
  '@id': a.id,
  '@type': 'Archive',
  ...metadataFields(a, at),
  _expiresInSeconds: expiresInSeconds,
});

/** The description (fetched.json): its entries as sent, and how long it can still be downloaded. */
export const archiveBody = (a: ArchiveRecord, at: Addresses, expiresInSeconds: number): JsonObject => ({
  '@context': [context('archives'), context('metadata')],
  '@id': a.id,
  '@type': 'Archive',
  resources: a.source,
  ...metadataFields(a, at),
  _expiresInSeconds: expiresInSeconds,
});
