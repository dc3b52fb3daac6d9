import { aclAt, nextAcl, type AclEvent, type AclState } from './acls/Acl.js';
import { selfAndAncestors, type AclPath } from './AclPath.js';
import { aclAllows, listingAccess, ownEntries, type AclLookup, type ListingAccess } from './aclAllows.js';
import type { Caller } from '../../kernel/Identity.js';

export interface AclQuery {
  /** Only the entries naming one of the caller's identities (the default of `GET /v1/acls`). */
  self: boolean;
  /** Add the ACLs of the ancestors. */
  ancestors: boolean;
}

/**
 * The current ACLs, folded from ACL events over the bootstrap root: what authorization reads on
 * every request, so it answers from memory.
 */
export class AclIndex implements AclLookup {
  /**
   * `byPath` holds the ACLs written so far (in the service: the projected states of the ACL kind);
   * the root is the bootstrap ACL until it is first written.
   */
  constructor(
    private readonly bootstrapRoot: AclState,
    private readonly byPath: Map<AclPath, AclState> = new Map(),
  ) {}

  /** Folds an event (tests and tools; the service folds through the projector). */
  apply(event: AclEvent): AclState {
    const state = nextAcl(this.get(event.path), event);
    this.byPath.set(event.path, state);
    return state;
  }

  get(path: AclPath): AclState | undefined {
    return this.byPath.get(path) ?? (path === '/' ? this.bootstrapRoot : undefined);
  }

  /** The ACL of `path` as it was at `rev` (own entries only when `self`). */
  at(path: AclPath, rev: number, caller: Caller, self: boolean): AclState | undefined {
    const current = this.get(path);
    const then = current && aclAt(current, rev);
    return then && (self ? ownEntries(then, caller.identities) : then);
  }

  allows(caller: Caller, permission: string, path: AclPath): boolean {
    return aclAllows(this, caller.identities, permission, path);
  }

  listingAccess(caller: Caller, permission: string, projects: Iterable<string>): ListingAccess {
    return listingAccess(this, caller.identities, permission, projects);
  }

  /**
   * The ACLs on a path or on the paths a pattern matches (`*` for any one segment: `/*`,
   * `/{org}/*`, `/*\/*`), root first; paths without an ACL are left out.
   */
  query(pathOrPattern: string, caller: Caller, q: AclQuery): AclState[] {
    const segments = pathOrPattern === '/' ? [] : pathOrPattern.slice(1).split('/');
    const matches = (path: AclPath) => {
      const own = path === '/' ? [] : path.slice(1).split('/');
      return own.length === segments.length && segments.every((s, i) => s === '*' || s === own[i]);
    };
    const found = new Set<AclPath>();
    for (const path of new Set(['/', ...this.byPath.keys()])) if (matches(path)) for (const p of q.ancestors ? selfAndAncestors(path) : [path]) found.add(p);
    if (q.ancestors && !pathOrPattern.includes('*')) for (const p of selfAndAncestors(pathOrPattern)) found.add(p);
    return [...found]
      .map((p) => this.get(p))
      .filter((s): s is AclState => s !== undefined)
      .sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : 1))
      .map((s) => (q.self ? ownEntries(s, caller.identities) : s));
  }
}

const depth = (path: AclPath) => (path === '/' ? 0 : path.split('/').length - 1);
