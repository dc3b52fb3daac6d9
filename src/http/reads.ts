import type { Request } from 'express';

/**
 * A read model a request can wait for before it is served (consistentReads): the states (fetches,
 * ACL decisions, the state a command is evaluated against), the catalogue (listings, links,
 * aggregations), the full-text index, the SPARQL replica, and the external store when there is one.
 */
export type ReadModel = 'states' | 'catalogue' | 'text' | 'sparql' | 'store';

/** What a route reads: a fixed set, or one that depends on the request's parameters (a listing's `q`, `sort`). */
export type Reads = readonly ReadModel[] | ((req: Request) => readonly ReadModel[]);

/** Event streams read the log themselves; health and metrics must answer whatever the log does. */
export const NOTHING: Reads = [];
/** Writes: the state the command is evaluated against; a projection that is behind never stops them. */
export const STATES: Reads = ['states'];
/** Fetches and other reads of one thing. */
export const FETCH: Reads = ['states', 'catalogue'];
/** Incoming and outgoing links: the catalogue graph, which the external store's holder projects. */
export const LINKS: Reads = ['states', 'catalogue', 'store'];
/** Search (the search API, views' `_search`): the text index, and the store where it searches. */
export const SEARCH: Reads = ['states', 'catalogue', 'text', 'store'];
/** The SPARQL endpoint: this replica's SPARQL datasets, or the store when it is external. */
export const SPARQL: Reads = ['states', 'catalogue', 'sparql', 'store'];

/**
 * A listing: full text with `q`; on the external store every listing is SPARQL over its catalogue
 * graph (replicas keep no index of it), so each waits for the store (nothing more when embedded).
 */
export const LISTING: Reads = (req) => ['states', 'catalogue', ...(req.query['q'] !== undefined ? (['text'] as const) : []), 'store'];

/** The read models a request to a route waits for. */
export const readsOf = (reads: Reads, req: Request): readonly ReadModel[] => (typeof reads === 'function' ? reads(req) : reads);
