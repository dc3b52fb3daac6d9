import type { KindDefinition, Listed } from '../domain/KindDefinition.js';
import type { ItemStates } from '../events/ItemStates.js';
import type { ProjectRef } from '../kernel/labels.js';
import { listedItemKey } from './projectItemKeys.js';
import type { States } from './States.js';

/** One listed item of a project: its kind, log key and latest state. */
export interface ProjectItem {
  definition: KindDefinition;
  key: string;
  state: unknown;
}

/** Items of a shared kind read per round trip. */
const PAGE = 500;

/**
 * A project's listed items over every kind: those of the kinds this process holds from its maps,
 * those of the shared kinds (resources and schemas on Redis, which grow with the data) from where
 * the log keeps them, a page at a time. Nothing of them outlives a page.
 */
export class ProjectItemStates {
  constructor(
    readonly states: States,
    private readonly shared: Pick<ItemStates, 'keysOf' | 'getMany'>,
    private readonly page = PAGE,
  ) {}

  /** The project's items of the kinds held here, read at once: they are as of the fold's position now. */
  held(project: ProjectRef, kinds?: ReadonlySet<string>): ProjectItem[] {
    const found: ProjectItem[] = [];
    for (const [definition, items] of this.states.all()) {
      if (!definition.listed || (kinds && !kinds.has(definition.kind))) continue;
      for (const [key, state] of items) if (definition.listed(state).project === project) found.push({ definition, key, state });
    }
    return found;
  }

  /** The project's items of the shared kinds, a page at a time (their latest states: possibly past the fold's position). */
  async *sharedOf(project: ProjectRef, kinds?: ReadonlySet<string>): AsyncGenerator<ProjectItem[]> {
    for (const definition of this.states.definitions) {
      if (!definition.listed || this.states.holds(definition) || (kinds && !kinds.has(definition.kind))) continue;
      const keys = await this.shared.keysOf(definition.kind, project);
      for (let at = 0; at < keys.length; at += this.page) {
        const page = keys.slice(at, at + this.page);
        const states = await this.shared.getMany(definition.kind, page);
        const found: ProjectItem[] = [];
        page.forEach((key, i) => {
          const state = states[i];
          if (state !== undefined && definition.listed!(state).project === project) found.push({ definition, key, state });
        });
        if (found.length) yield found;
      }
    }
  }

  /** Every listed item of the project (of `kinds` when given), in pages: the held ones first. */
  async *of(project: ProjectRef, kinds?: ReadonlySet<string>): AsyncGenerator<ProjectItem[]> {
    const held = this.held(project, kinds);
    if (held.length) yield held;
    yield* this.sharedOf(project, kinds);
  }

  /** The project's item of that `@id`, of whichever listed kind holds it (their states are keyed `{kind}/{project}/{id}`). */
  async find(project: ProjectRef, id: string): Promise<ProjectItem | undefined> {
    for (const definition of this.states.definitions) {
      if (!definition.listed) continue;
      const key = listedItemKey(definition.kind, project, id);
      const state = this.states.holds(definition) ? this.states.of(definition).get(key) : (await this.shared.getMany(definition.kind, [key]))[0];
      if (state === undefined) continue;
      const listed = definition.listed(state);
      if (listed.project === project && listed.id === id) return { definition, key, state };
    }
    return undefined;
  }
}

/** Each page's items as the catalogue lists them. */
export async function* listedPages(pages: AsyncIterable<readonly ProjectItem[]>): AsyncGenerator<Listed[]> {
  for await (const page of pages) yield page.map(({ definition, state }) => definition.listed!(state));
}
