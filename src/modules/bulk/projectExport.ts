import type { LogEvent } from '../../events/EventLog.js';
import { nextResource } from '../../domain/resources/Resource.js';
import type { ResourceState } from '../../domain/resources/Resource.js';
import { resourceEventOf } from '../../domain/resources/ItemKind.js';
import type { ResourceEvent } from '../../domain/resources/ResourceEvent.js';
import { isContentEvent } from '../../domain/resources/ResourceEvent.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { inGraph, metadataTriples } from '../../http/render/rdfFormats.js';
import { revisionGraph } from '../../store/graphNames.js';
import type { ExportedKind, ExportRecord } from './exportRecord.js';
import type { FileItem, FilePort } from '../filePorts.js';
import { fileRecords } from './fileRecords.js';
import type { ProjectItems } from '../Platform.js';

/** What an export reads: the items' current states, their events in the log, the RDF of a payload. */
export interface ExportSources {
  /** Resources' and schemas' states where they are kept. */
  states: Record<ExportedKind, ProjectItems>;
  /** Files, every revision's metadata kept in each. */
  files: FilePort;
  /** Events with `seq > after`, in order (a run of them at once). */
  read(after: number, limit: number): Promise<LogEvent[]>;
  get(seq: number): Promise<LogEvent | undefined>;
  toNQuads(expanded: JsonObject[]): Promise<string>;
  addresses: Addresses;
}

/** Schemas before resources: a resource's revision may have been validated against any of them. */
const ORDER: readonly ExportedKind[] = ['schemas', 'resources'];
const RUN = 1_000;

/** The log positions of every event of the project's items of a kind (deprecated included), ascending; states read a run of keys at a time. */
const seqsOf = async (states: ProjectItems, project: ProjectRef): Promise<number[]> => {
  const keys = await states.keysOf(project);
  const seqs: number[] = [];
  for (let at = 0; at < keys.length; at += RUN) for (const state of await states.getMany(keys.slice(at, at + RUN))) if (state) seqs.push(...state.seqs);
  return seqs.sort((a, b) => a - b);
};

/**
 * The events at `seqs` (ascending), in order: read in runs when they are dense in the log (a project
 * that is most of it), one by one otherwise. Pruned ones are skipped.
 */
async function* eventsAt(seqs: readonly number[], sources: ExportSources): AsyncGenerator<LogEvent> {
  if (seqs.length === 0) return;
  const wanted = new Set(seqs);
  const span = seqs[seqs.length - 1]! - seqs[0]! + 1;
  if (seqs.length * 4 < span) {
    for (const seq of seqs) {
      const event = await sources.get(seq);
      if (event) yield event;
    }
    return;
  }
  let after = seqs[0]! - 1;
  const last = seqs[seqs.length - 1]!;
  while (after < last) {
    const events = await sources.read(after, Math.min(RUN, last - after));
    if (events.length === 0) return;
    for (const event of events) if (wanted.has(event.seq)) yield event;
    after = events[events.length - 1]!.seq;
  }
}

/** Every event of the project's items of a kind, in log order, with the item's state after it. */
async function* history(project: ProjectRef, kind: ExportedKind, sources: ExportSources): AsyncGenerator<{ event: ResourceEvent; state: ResourceState }> {
  const seqs = await seqsOf(sources.states[kind], project);
  const folded = new Map<string, ResourceState | undefined>();
  for await (const logged of eventsAt(seqs, sources)) {
    const event = resourceEventOf(logged.event);
    const id = (event as { id: string }).id;
    const state = nextResource(folded.get(id), event, logged.seq);
    folded.set(id, state);
    if (state) yield { event, state };
  }
}

const recordOf = (kind: ExportedKind, event: ResourceEvent, state: ResourceState, at: Addresses): ExportRecord => {
  const tagged = event as { tag?: string; targetRev?: number };
  return {
    _kind: kind,
    '@id': state.id,
    _rev: state.rev,
    _event: event.type,
    _schema: state.schema,
    _schemaProject: state.schemaProject,
    _types: state.types,
    _tags: state.tags,
    _deprecated: state.deprecated,
    _createdAt: state.createdAt,
    _createdBy: at.subject(state.createdBy),
    _updatedAt: state.updatedAt,
    _updatedBy: at.subject(state.updatedBy),
    ...(tagged.tag === undefined ? {} : { _tag: tagged.tag }),
    ...(tagged.targetRev === undefined ? {} : { _targetRev: tagged.targetRev }),
    ...(isContentEvent(event) ? { _source: event.source } : {}),
  };
};

/**
 * A project's history as NDJSON: one line per item and revision, schemas first, each kind in log
 * order (so replaying the lines in order rebuilds the same revisions), files last. The source is on
 * the revisions that set it; the others repeat the metadata only.
 */
export async function* exportRecords(project: ProjectRef, sources: ExportSources, readable: (file: FileItem) => Promise<boolean>): AsyncGenerator<string> {
  for (const kind of ORDER)
    for await (const { event, state } of history(project, kind, sources)) yield `${JSON.stringify(recordOf(kind, event, state, sources.addresses))}\n`;
  yield* fileRecords(project, sources.files, readable);
}

/** Every revision graph of the project's items as N-Quads: the payload's triples and the revision's metadata, in the revision's named graph. */
export async function* exportQuads(project: ProjectRef, sources: ExportSources): AsyncGenerator<string> {
  for (const kind of ORDER) {
    for await (const { event, state } of history(project, kind, sources)) {
      // A revision that did not change the content shows the last one that did.
      const content = isContentEvent(event) ? event.expanded : await contentOf(state, sources);
      const triples = (await sources.toNQuads(content)) + metadataTriples(state, sources.addresses);
      yield `${inGraph(triples, revisionGraph(kind, state.project, state.id, state.rev))}`;
    }
  }
}

const contentOf = async (state: ResourceState, sources: ExportSources): Promise<JsonObject[]> => {
  const logged = await sources.get(state.contentSeq);
  const event = logged && resourceEventOf(logged.event);
  return event && isContentEvent(event) ? event.expanded : [];
};
