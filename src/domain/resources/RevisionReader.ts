import type { EventLog, LogEvent } from '../../events/EventLog.js';
import { rejections } from '../rejections.js';
import type { ResourceState } from './Resource.js';
import { nextResource } from './Resource.js';
import type { ResourceEvent } from './ResourceEvent.js';
import { isContentEvent } from './ResourceEvent.js';
import { resourceEventOf } from './ItemKind.js';

export type ContentEvent = Extract<ResourceEvent, { type: 'ResourceCreated' | 'ResourceUpdated' | 'ResourceRefreshed' }>;

/** A revision as it was: its state (metadata at that revision) and the event holding its content. */
export interface Revision {
  state: ResourceState;
  content: ContentEvent;
}

/**
 * Reads any revision of a resource (or schema) back from the log: revisions are immutable, so the state at
 * revision n is the fold of the resource's events up to n.
 */
export class RevisionReader {
  constructor(private readonly log: EventLog) {}

  async at(current: ResourceState, rev: number): Promise<Revision> {
    const state = await this.stateAt(current, rev);
    return { state, content: await this.content(state.contentSeq) };
  }

  /** The state (metadata) at a revision; reads the log only for earlier revisions. */
  async stateAt(current: ResourceState, rev: number): Promise<ResourceState> {
    if (rev < 1 || rev > current.rev) throw rejections.revisionNotFound(rev, current.rev);
    if (rev === current.rev) return current;
    let state: ResourceState | undefined;
    for (const seq of current.seqs) {
      const logged = await this.log.get(seq);
      if (!logged) continue;
      const event = resourceEventOf(logged.event);
      if (event.rev > rev) break;
      state = nextResource(state, event, seq);
    }
    if (!state) throw rejections.revisionNotFound(rev, current.rev);
    return state;
  }

  async content(seq: number): Promise<ContentEvent> {
    const logged: LogEvent | undefined = await this.log.get(seq);
    const event = logged && resourceEventOf(logged.event);
    if (!event || !isContentEvent(event)) throw new Error(`event ${seq} is not the content of a resource`);
    return event;
  }
}
