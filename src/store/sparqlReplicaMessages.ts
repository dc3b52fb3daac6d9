import type { ProjectRef } from '../kernel/labels.js';
import type { ProjectQuery, QueryAnswer, QueryFailure, ViewMember } from './ProjectSparqlStore.js';

/*
 * The messages between the SPARQL replica (SparqlReplica, on the event loop) and its query workers
 * (sparqlReplicaWorker): what a worker starts from, the changes and queries posted to it, its replies.
 */

/** What a fresh query worker starts from: the revision file (read as projects are first queried), and the current heads. */
export interface ReplicaStart {
  file: string;
  heads: [ProjectRef, string, string][];
  /** The user-defined SPARQL views' members, copied once the file is loaded. */
  views: [ProjectRef, string, ViewMember[]][];
  maxResults: number;
  /** Most quads one SPARQL view's copy may hold. */
  maxViewQuads?: number;
}

export type ReplicaChange =
  | { t: 'revision'; project: ProjectRef; graph: string; ntriples: string }
  | { t: 'current'; project: ProjectRef; item: string; graph: string | undefined }
  | { t: 'drop'; project: ProjectRef; graphs: string[] }
  | { t: 'members'; project: ProjectRef; view: string; members: ViewMember[] }
  | { t: 'dropView'; view: string };

/** A query carries its deadline (`Date.now()` time): one that waited for its view's copy past it is answered busy, never run. */
export type ReplicaMessage =
  | { t: 'changes'; changes: ReplicaChange[] }
  | { t: 'query'; id: number; query: ProjectQuery; deadline: number; millis: number }
  /** The query waiting for its view's copy was answered busy: the worker drops it. */
  | { t: 'cancel'; id: number };

/** `building`: the query waits for its view's copy; `started`: it runs, the copy done. */
export type Reply = { ready: true } | { building: number } | { started: number } | { id: number; answer: QueryAnswer } | { id: number; failure: QueryFailure };
