import type { Request, RequestHandler } from 'express';
import type { Follower, ReadBarrier } from '../projection/ReadBarrier.js';

/**
 * Before authentication (ACL decisions read the ACL states) and before any handler: notes the log
 * head as the request arrives and waits until what the request reads from has applied it. Writes
 * go through it too, so a command is evaluated against a state no older than the request.
 * Event streams read the log themselves; health and metrics must answer whatever the log does.
 */
export const consistentReads =
  (barrier: ReadBarrier, readsFrom: (req: Request) => readonly Follower[]): RequestHandler =>
  (req, _res, next) => {
    if (!req.path.startsWith('/v1/') || (req.method === 'GET' && req.path.endsWith('/events'))) return next();
    barrier
      .note()
      .then((head) => barrier.reach(head, readsFrom(req)))
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
   * embedded store.
   */
  store?: Follower;
}

/**
 * What a request reads from. Every request reads the states (fetches, ACL decisions, the state a
 * command is evaluated against). Reads (`GET`, and the query `POST`s of search and SPARQL) read
 * the catalogue too (listings, links, aggregations); full text (`q`, the search API) the text
 * index; the SPARQL endpoint its replica. Writes wait for the states only: a projection that is
 * behind never stops them.
 */
export const readsFrom =
  (models: ReadModels) =>
  (req: Request): readonly Follower[] => {
    const path = req.path;
    const sparql = path.endsWith('/sparql');
    const search = path.startsWith('/v1/search') || path.includes('/_search') || path.includes('/search/') || req.query['q'] !== undefined;
    const read = req.method === 'GET' || req.method === 'HEAD' || sparql || search || path.startsWith('/v1/multi-fetch');
    if (!read) return [models.states];
    const catalogueGraph = req.query['sort'] !== undefined || req.query['aggregations'] !== undefined || /\/(incoming|outgoing)$/.test(path);
    const store = models.store && (sparql || search || catalogueGraph) ? [models.store] : [];
    return [models.states, models.catalogue, ...(search ? models.text : []), ...(sparql && models.sparql !== models.store ? [models.sparql] : []), ...store];
  };
