import type { CheckedPermission as Permission } from '../kernel/permissions.js';
import type { BodyKind } from './bodyReader.js';
import { FETCH, STATES } from './reads.js';
import type { Reads } from './reads.js';
import { onProject } from './route.js';
import type { Endpoint, Handler } from './route.js';

/**
 * The endpoints of a kind kept in a project that Delta reads with `resources/read` and writes with a
 * permission of its own (resolvers, views): a read waits for what it declares (a fetch by default),
 * a write for the states only.
 */
export const projectEndpoints = (writePermission: Permission) => ({
  read: (summary: string, handle: Handler, reads: Reads = FETCH): Endpoint => ({
    guard: { permission: 'resources/read', on: onProject },
    reads,
    body: 'none',
    handle,
    summary,
  }),
  /** A write takes `?indexing` unless it appends nothing (`indexed` false: a view's restart). */
  write: (summary: string, handle: Handler, body: Extract<BodyKind, 'json' | 'none'> = 'json', indexed = true): Endpoint => ({
    guard: { permission: writePermission, on: onProject },
    reads: STATES,
    body,
    handle,
    summary,
    ...(indexed ? { indexing: true as const } : {}),
  }),
});
