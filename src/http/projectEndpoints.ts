import type { CheckedPermission as Permission } from '../kernel/permissions.js';
import { FETCH, STATES } from './reads.js';
import type { Reads } from './reads.js';
import type { ItemPath } from './requestEdge.js';
import { onProject } from './route.js';
import type { Endpoint, Handler } from './route.js';

/** What an endpoint declares besides its permission and handler; a read of nothing but the states' fetch by default, without a body. */
export type EndpointOptions = Partial<Omit<Endpoint, 'guard' | 'handle'>>;

/** An endpoint checked on the path's project (`{org}/{project}`) with one permission. */
export const projectEndpoint = (permission: Permission, handle: Handler, { reads = FETCH, body = 'none', ...rest }: EndpointOptions = {}): Endpoint => ({
  guard: { permission, on: onProject },
  reads,
  body,
  handle,
  ...rest,
});

/**
 * The endpoints of a kind kept in a project: a read waits for what it declares (a fetch by
 * default), a write for the states only and takes `?indexing`; both name the route's item when the
 * kind's paths do (`item`; `false` on a route without one, a listing).
 */
export const kindEndpoints = (readPermission: Permission, writePermission: Permission, item?: ItemPath) => {
  const at = (path: ItemPath | false | undefined) => (path ? { item: path } : {});
  return {
    read: (handle: Handler, reads: Reads = FETCH, path: ItemPath | false | undefined = item): Endpoint =>
      projectEndpoint(readPermission, handle, { reads, ...at(path) }),
    write: (handle: Handler, body: 'json' | 'none' = 'json', path: ItemPath | false | undefined = item): Endpoint =>
      projectEndpoint(writePermission, handle, { reads: STATES, body, indexing: true, ...at(path) }),
  };
};

/**
 * The endpoints of a kind kept in a project that Delta reads with `resources/read` and writes with a
 * permission of its own (resolvers, views), each with its OpenAPI summary. A write takes `?indexing`
 * unless it appends nothing (`indexed` false: a view's restart); `item` names the route's item, resolved at the edge.
 */
export const projectEndpoints = (writePermission: Permission) => ({
  read: (summary: string, handle: Handler, reads: Reads = FETCH, item?: ItemPath): Endpoint =>
    projectEndpoint('resources/read', handle, { reads, summary, ...(item ? { item } : {}) }),
  write: (summary: string, handle: Handler, body: 'json' | 'none' = 'json', indexed = true, item?: ItemPath): Endpoint =>
    projectEndpoint(writePermission, handle, { reads: STATES, body, summary, ...(indexed ? { indexing: true as const } : {}), ...(item ? { item } : {}) }),
});
