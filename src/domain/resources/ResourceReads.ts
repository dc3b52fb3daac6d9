import type { ProjectRef } from '../../kernel/labels.js';
import type { ItemRef } from '../../kernel/ItemRef.js';
import { rejections } from '../rejections.js';
import type { ProjectService } from '../projects/ProjectService.js';
import type { CompactedRevisions } from './CompactedRevisions.js';
import type { ItemKind } from './ItemKind.js';
import type { ResourceState } from './Resource.js';
import type { JsonObject } from './ResourceEvent.js';
import type { ResourceStates, Selector } from './resourcePorts.js';
import type { Revision, RevisionReader } from './RevisionReader.js';
import type { SchemaResolver, ValidationReport } from './SchemaResolver.js';

/**
 * Reads of resources or schemas: the item a path names (its current state), a revision selected by
 * `rev` or `tag` read back from the log, compacted, or validated; nothing is written.
 */
export class ResourceReads {
  constructor(
    private readonly states: ResourceStates,
    private readonly projects: ProjectService,
    private readonly schemas: SchemaResolver,
    private readonly reader: RevisionReader,
    private readonly kind: ItemKind,
    private readonly compacted: CompactedRevisions,
  ) {}

  /** The revision selected by `rev` or `tag` (the current one by default). */
  async fetch(item: ItemRef, selector: Selector): Promise<Revision> {
    const { state, rev } = await this.selected(item, selector);
    return this.reader.at(state, rev);
  }

  /** The selected revision compacted; the log is read only when the compacted form is not kept. */
  async fetchCompacted(item: ItemRef, selector: Selector): Promise<{ state: ResourceState; compacted: JsonObject }> {
    const { state: current, rev } = await this.selected(item, selector);
    const state = await this.reader.stateAt(current, rev);
    const cached = this.compacted.get(state.contentSeq);
    if (cached) return { state, compacted: cached };
    return { state, compacted: await this.compacted.compact({ state, content: await this.reader.content(state.contentSeq) }) };
  }

  /** The report of validating the current payload against the schema of the path (`_`: the resource's own, latest); changes nothing. */
  async validate(item: ItemRef): Promise<ValidationReport> {
    const ref = item.project;
    this.projects.fetch(ref);
    const state = await this.current(ref, item.id);
    const iri = item.schema ?? this.schemas.baseOf(state.schema);
    const schema = await this.schemas.resolve(ref, iri);
    const { content } = await this.reader.at(state, state.rev);
    return schema.report(state.id, content.expanded);
  }

  /** The item's current state, or the not-found rejection. */
  async current(ref: ProjectRef, id: string): Promise<ResourceState> {
    const state = await this.states.get(this.kind.key(ref, id));
    if (!state) throw rejections.notFound(id, ref);
    return state;
  }

  /** The resource named by the path (its project existing, or active unless `read`); a schema it names must be the resource's schema. */
  async located(item: ItemRef, read: boolean) {
    const { project: ref, id } = item;
    if (read) this.projects.fetch(ref);
    else this.projects.active(ref);
    const state = await this.current(ref, id);
    if (item.schema !== undefined && this.schemas.baseOf(item.schema) !== this.schemas.baseOf(state.schema)) throw rejections.notFound(id, ref);
    return { state, id, ref };
  }

  private async selected(item: ItemRef, selector: Selector) {
    const { state } = await this.located(item, true);
    if (selector.tag === undefined) return { state, rev: selector.rev ?? state.rev };
    const tagged = state.tags[selector.tag];
    if (tagged === undefined) throw rejections.tagNotFound(selector.tag);
    return { state, rev: tagged };
  }
}
