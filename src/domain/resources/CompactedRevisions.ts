import type { Expansion, JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { Lru } from '../../util/Lru.js';
import type { ProjectService } from '../projects/ProjectService.js';
import type { ProjectContexts } from './ProjectContexts.js';
import type { ItemKind } from './ItemKind.js';
import type { JsonObject } from './ResourceEvent.js';
import type { Revision } from './RevisionReader.js';

/**
 * Revisions' payloads compacted with their own context, by the log position of their content: kept
 * from the write's expansion when it brought one, else computed once when first read.
 */
export class CompactedRevisions {
  private readonly kept = new Lru<number, JsonObject>(20_000);

  constructor(
    private readonly projects: ProjectService,
    private readonly jsonld: JsonLdProcessor,
    private readonly kind: ItemKind,
    private readonly contexts: ProjectContexts,
  ) {}

  /** The compacted form kept for a content position, if any. */
  get(seq: number): JsonObject | undefined {
    return this.kept.get(seq);
  }

  /** Keeps the compacted form a write's expansion brought under its event's position (none when the write changed nothing). */
  keep(seq: number | undefined, expansion: Expansion | undefined): void {
    const compacted = expansion && this.jsonld.takeCompacted(expansion.expanded);
    if (compacted && seq !== undefined && !this.kept.get(seq)) this.kept.set(seq, compacted);
  }

  /** The revision's payload compacted with its own context (computed once per revision, then kept). */
  async compact(revision: Revision): Promise<JsonObject> {
    const seq = revision.state.contentSeq;
    const cached = this.kept.get(seq);
    if (cached) return cached;
    const project = this.projects.fetch(revision.state.project);
    const context = this.jsonld.contextOf(revision.content.source, project.base, project.vocab, this.kind.contexts);
    const compacted = await this.jsonld.compact(
      revision.content.expanded,
      context,
      revision.content.remoteContexts,
      (pinned) => this.contexts.pinned(pinned),
      project.base,
    );
    this.kept.set(seq, compacted);
    return compacted;
  }
}
