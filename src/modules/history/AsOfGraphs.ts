import type { EventLog } from '../../events/EventLog.js';
import type { KindDefinition, Listed } from '../../domain/KindDefinition.js';
import type { ResourceState } from '../../domain/resources/Resource.js';
import type { Versioned } from '../../domain/versioned.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { revisionGraph } from '../../store/graphNames.js';
import { Lru } from '../../util/Lru.js';
import type { ProjectItemStates } from '../../projection/ProjectItemStates.js';
import type { AsOf, AsOfSelection } from '../../sparqlEndpoint/SparqlEndpoint.js';

/** An item's revision at an instant: the one current then, undefined when it did not exist yet or was deprecated then. */
export type RevisionAt = { rev: number } | undefined;

const time = (instant: string) => Date.parse(instant);

/** Versioned kinds (files, storages, views...) keep every revision's record: the last one made by `at`. */
export const recordAt = (state: Pick<Versioned<unknown>, 'history'>, at: number): RevisionAt => {
  let found: Versioned<unknown>['history'][number] | undefined;
  for (const r of state.history) {
    if (time(r.updatedAt) > at) break;
    found = r;
  }
  return found && !found.deprecated ? { rev: found.rev } : undefined;
};

/**
 * The revision graphs that make a project's default graph as of an instant (each item at the
 * revision current then; items not yet created, deprecated then, or deleted for good left out) or
 * of a tag (each item at the revision the tag names; items without it left out). Items unchanged
 * since the instant need nothing but their state; the others' events are read back from the log.
 */
export class AsOfGraphs {
  /**
   * An item's revision at an instant it was read back from the log for (0: none). Final once an
   * event after the instant exists: events up to it never change, and an item deleted and created
   * again has another creation instant, part of the key.
   */
  private readonly readBack = new Lru<string, number>(500_000);

  constructor(
    private readonly items: Pick<ProjectItemStates, 'of'>,
    private readonly events: Pick<EventLog, 'get'>,
  ) {}

  async graphs(project: ProjectRef, asOf: AsOf, selects?: AsOfSelection): Promise<string[]> {
    if (selects) return this.selected(project, asOf, selects);
    const at = 'at' in asOf ? time(asOf.at) : undefined;
    const graphs: string[] = [];
    for await (const page of this.items.of(project))
      for (const { definition, state } of page) {
        if (!definition.revision) continue;
        const listed = definition.listed!(state);
        const item = state as ResourceState | Versioned<unknown>;
        const rev = at === undefined ? item.tags[(asOf as { tag: string }).tag] : await this.revAt(`${definition.kind}\n${listed.id}`, item, at);
        if (rev !== undefined) graphs.push(revisionGraph(definition.kind, project, listed.id, rev));
      }
    return graphs;
  }

  /**
   * A view's dataset as of then: each item's revision of then (at the instant, deprecated or not;
   * the tagged one) kept when the item as it was at that revision passes the view's selection.
   */
  private async selected(project: ProjectRef, asOf: AsOf, selects: AsOfSelection): Promise<string[]> {
    const graphs: string[] = [];
    for await (const page of this.items.of(project))
      for (const { definition, state } of page) {
        if (!definition.revision) continue;
        const current = definition.listed!(state);
        const then = await this.listedThen(definition as KindDefinition<unknown>, state as ResourceState | Versioned<unknown>, current, asOf);
        if (then && selects(then)) graphs.push(revisionGraph(definition.kind, project, then.id, then.rev));
      }
    return graphs;
  }

  /** The item's catalogue row as it was then (undefined: it did not exist then, or carries no such tag). */
  private async listedThen(
    definition: KindDefinition<unknown>,
    item: ResourceState | Versioned<unknown>,
    current: Listed,
    asOf: AsOf,
  ): Promise<Listed | undefined> {
    const at = 'at' in asOf ? time(asOf.at) : undefined;
    const tagged = 'tag' in asOf ? item.tags[asOf.tag] : undefined;
    if (at === undefined ? tagged === undefined : time(item.createdAt) > at) return undefined;
    if (at === undefined ? tagged === current.rev : time(item.updatedAt) <= at) return current;
    if ('history' in item) {
      const record = at === undefined ? item.history[tagged! - 1] : item.history.filter((r) => time(r.updatedAt) <= at).pop();
      return record && { ...current, rev: record.rev, deprecated: record.deprecated };
    }
    // A resource or schema: its state folded from its events up to then (its types and schema may have changed since).
    let state: unknown;
    for (const seq of item.seqs) {
      const logged = await this.events.get(seq);
      if (!logged) continue;
      const event = logged.event as { instant: string; rev?: number };
      if (at === undefined ? (event.rev ?? logged.rev) > tagged! : time(event.instant) > at) break;
      state = definition.next(state, logged);
    }
    return state === undefined ? undefined : definition.listed!(state);
  }

  private async revAt(key: string, item: ResourceState | Versioned<unknown>, at: number): Promise<number | undefined> {
    if (time(item.createdAt) > at) return undefined;
    if (time(item.updatedAt) <= at) return item.deprecated ? undefined : item.rev;
    if ('history' in item) return recordAt(item, at)?.rev;
    const cacheKey = `${key}\n${item.project}\n${item.createdAt}\n${at}`;
    const known = this.readBack.get(cacheKey);
    if (known !== undefined) return known || undefined;
    const rev = await this.logRevAt(item, at);
    this.readBack.set(cacheKey, rev ?? 0);
    return rev;
  }

  private async logRevAt(item: ResourceState, at: number): Promise<number | undefined> {
    let found: { rev: number; deprecated: boolean } | undefined;
    for (const seq of item.seqs) {
      const logged = await this.events.get(seq);
      if (!logged) continue;
      const event = logged.event as { type: string; instant: string; rev?: number };
      if (time(event.instant) > at) break;
      const deprecated = event.type.endsWith('Undeprecated') ? false : event.type.endsWith('Deprecated') ? true : (found?.deprecated ?? false);
      found = { rev: event.rev ?? logged.rev, deprecated };
    }
    return found && !found.deprecated ? found.rev : undefined;
  }
}
