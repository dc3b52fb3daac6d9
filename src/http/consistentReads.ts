import type { RequestHandler, Response } from 'express';
import type { Follower, ReadBarrier } from '../projection/ReadBarrier.js';
import type { ReadModel } from './reads.js';

const READS = 'reads';

/** Notes what the route a request takes declared to read (Routes' lookup, before authentication). */
export const noteReads = (res: Response, reads: readonly ReadModel[]): void => void (res.locals[READS] = reads);

/**
 * Before authentication (ACL decisions read the ACL states) and before any handler: notes the log
 * head as the request arrives and waits until what its route declared to read has applied it.
 * Writes declare the states, so a command is evaluated against a state no older than the request.
 * A request no route takes (404, 405) and a route that reads nothing (event streams, health,
 * metrics) pass at once.
 */
export const consistentReads =
  (barrier: ReadBarrier, models: ReadModels): RequestHandler =>
  (_req, res, next) => {
    const reads = res.locals[READS] as readonly ReadModel[] | undefined;
    if (!reads?.length) return next();
    barrier
      .note()
      .then((head) => barrier.reach(head, followersOf(models, reads)))
      .then(() => next(), next);
  };

/** The followers of a registry, by what requests read. */
export interface ReadModels {
  states: Follower;
  catalogue: Follower;
  text: readonly Follower[];
  sparql: Follower;
  /**
   * The external store, shared by every replica and projected by one of them (its revision graphs,
   * datasets and catalogue graph): reads that query it (SPARQL, search, listings in another order
   * than the default, aggregations, links) wait for its recorded position. Absent with the
   * embedded store, where reads that declare it wait for nothing more.
   */
  store?: Follower;
}

/** The followers behind the read models a route declared, each once (the SPARQL replica is the store when that is external). */
export const followersOf = (models: ReadModels, reads: readonly ReadModel[]): readonly Follower[] => {
  const wanted = new Set(reads);
  const followers = [
    ...(wanted.has('states') ? [models.states] : []),
    ...(wanted.has('catalogue') ? [models.catalogue] : []),
    ...(wanted.has('text') ? models.text : []),
    ...(wanted.has('sparql') ? [models.sparql] : []),
    ...(wanted.has('store') && models.store ? [models.store] : []),
  ];
  return [...new Set(followers)];
};
