import type { AclCheck } from '../../kernel/AclCheck.js';
import type { Caller } from '../../kernel/Caller.js';
import type { EventLog } from '../../events/EventLog.js';
import type { FilePort } from '../filePorts.js';
import type { ItemRefs } from '../../domain/projects/itemRefs.js';
import type { ItemRef } from '../../kernel/ItemRef.js';
import { rejections } from '../../domain/rejections.js';
import type { ContentEvent, Revision } from '../../domain/resources/RevisionReader.js';
import { resourceEventOf } from '../../domain/resources/ItemKind.js';
import { isContentEvent } from '../../domain/resources/ResourceEvent.js';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { Selector } from '../../domain/resources/resourcePorts.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ItemReader } from '../Platform.js';
import type { BlamedTriple, ContentRevision } from './blame.js';
import { blame } from './blame.js';
import { canonicalLines, lineChanges } from './canonicalTriples.js';
import type { HistoryEntry, LifecycleEvent } from './historyEntries.js';
import { lifecycleHistory, recordHistory } from './historyEntries.js';
import type { PatchOperation } from './jsonPatch.js';
import { jsonPatch } from './jsonPatch.js';

export type ItemKindName = 'resources' | 'schemas';

/** One revision of a resource or schema, as its fetch reads it (`RevisionNotFound`, `TagNotFound`, the path's schema checked). */
export type RevisionSource = Pick<ResourceService, 'fetch'>;

export interface HistoryDeps {
  /** Resolves what a `_self` names (`/v1/diff`), once the caller may read its project. */
  refs: ItemRefs;
  items: Pick<ItemReader, 'find'>;
  files: Pick<FilePort, 'get' | 'type'>;
  events: Pick<EventLog, 'get'>;
  revisions: Record<ItemKindName, RevisionSource>;
  /** A revision's expanded payload as N-Triples, as its revision graph holds it. */
  triples(expanded: JsonObject[]): Promise<string>;
  acl: AclCheck;
}

/** One side of a diff: the item, its revision, and the tag it was asked by. */
export interface DiffSide {
  '@id': string;
  rev: number;
  tag?: string;
}

export interface RevisionDiff {
  from: DiffSide;
  to: DiffSide;
  source: PatchOperation[];
  added: string[];
  removed: string[];
}

/** An item of `/v1/diff`: what its `_self` names, its segments as they are there. */
export interface SelfRef {
  kind: ItemKindName;
  project: ProjectRef;
  schema: string;
  id: string;
  selector: Selector;
}

/** A selector as given: a revision, a tag, or nothing (the default for that side). */
export type Pick1 = Selector | undefined;

/** History, diffs and blame of items, read back from the log (revisions are immutable). */
export class HistoryService {
  constructor(private readonly deps: HistoryDeps) {}

  /** Every revision of a resource, schema or file, oldest first, `size` of them from `from`. */
  async history({ project, id }: ItemRef, from: number, size: number): Promise<{ total: number; entries: HistoryEntry[] }> {
    const item = await this.deps.items.find(project, id);
    if (item) {
      const seqs = item.state.seqs.slice(from, from + size);
      const events = await Promise.all(seqs.map((seq) => this.deps.events.get(seq)));
      const lifecycle = events.flatMap((e) => (e ? [resourceEventOf(e.event) as LifecycleEvent] : []));
      return { total: item.state.seqs.length, entries: lifecycleHistory(id, project, lifecycle) };
    }
    const file = await this.deps.files.get(project, id);
    if (file) return { total: file.history.length, entries: recordHistory(id, project, [this.deps.files.type], file.history.slice(from, from + size)) };
    throw rejections.notFound(id, project);
  }

  /** Two revisions of one item; `to` defaults to the latest, `from` to the one before `to` (`to` itself at revision 1). */
  async diff(kind: ItemKindName, item: ItemRef, from: Pick1, to: Pick1): Promise<RevisionDiff> {
    const source = this.deps.revisions[kind];
    const after = await source.fetch(item, to ?? {});
    const fromSelector = from ?? { rev: Math.max(1, after.state.rev - 1) };
    const before = await source.fetch(item, fromSelector);
    return this.compare(side(before, fromSelector), before, side(after, to), after);
  }

  /** Two items, each at its selected revision, once the caller may read both. */
  async diffItems(left: SelfRef, right: SelfRef, caller: Caller): Promise<RevisionDiff> {
    for (const ref of [left, right]) await this.deps.acl.authorize(caller, 'resources/read', `/${ref.project}`);
    const [a, b] = await Promise.all(
      [left, right].map(async (ref) =>
        this.deps.revisions[ref.kind].fetch((await this.deps.refs(ref.project, { schema: ref.schema, id: ref.id })) as ItemRef, ref.selector),
      ),
    );
    return this.compare(side(a!, left.selector), a!, side(b!, right.selector), b!);
  }

  /** Each triple of the selected revision with the revision that introduced it. */
  async blame(kind: ItemKindName, item: ItemRef, selector: Selector): Promise<{ id: string; rev: number; triples: BlamedTriple[] }> {
    const project = item.project;
    const target = await this.deps.revisions[kind].fetch(item, selector);
    const current = (await this.deps.items.find(project, target.state.id, kind))?.state ?? target.state;
    const contents: ContentEvent[] = [];
    for (const seq of current.seqs) {
      const logged = await this.deps.events.get(seq);
      if (!logged) continue;
      const event = resourceEventOf(logged.event);
      if (event.rev > target.state.rev) break;
      if (isContentEvent(event)) contents.push(event);
    }
    const revisions: ContentRevision[] = await Promise.all(
      contents.map(async (c) => ({ rev: c.rev, instant: c.instant, subject: c.subject, lines: await this.lines(c) })),
    );
    return { id: target.state.id, rev: target.state.rev, triples: blame(revisions) };
  }

  private async compare(fromSide: DiffSide, before: Revision, toSide: DiffSide, after: Revision): Promise<RevisionDiff> {
    const [a, b] = await Promise.all([this.lines(before.content), this.lines(after.content)]);
    return { from: fromSide, to: toSide, source: jsonPatch(before.content.source, after.content.source), ...lineChanges(a, b) };
  }

  private async lines(content: ContentEvent): Promise<string[]> {
    return canonicalLines(await this.deps.triples(content.expanded));
  }
}

const side = (revision: Revision, selector: Pick1): DiffSide => ({
  '@id': revision.state.id,
  rev: revision.state.rev,
  ...(selector?.tag === undefined ? {} : { tag: selector.tag }),
});
