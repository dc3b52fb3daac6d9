import { rejections } from './rejections.js';

/**
 * Kinds whose every revision is a few hundred bytes (organizations, projects, realms, the
 * permissions) keep their earlier revisions in their state, as ACLs do, so `?rev=` reads any of
 * them from memory: there are few of these items and they change rarely.
 */
export interface EarlierRevisions<S> {
  /** The item as it was at each earlier revision, oldest first. */
  earlier?: S[];
}

/** `next` folded from `previous`: the previous revision joins the earlier ones. */
export const keepEarlier = <S extends { rev: number } & EarlierRevisions<S>>(previous: S | undefined, next: S | undefined): S | undefined => {
  if (!next || !previous || previous.rev === next.rev) return next;
  const { earlier = [], ...then } = previous;
  return { ...next, earlier: [...earlier, then as S] };
};

/** The item at revision `rev` (the current one when absent); 404 `RevisionNotFound` when it never had it. */
export const revisionOf = <S extends { rev: number } & EarlierRevisions<S>>(state: S, rev: number | undefined): S => {
  if (rev === undefined || rev === state.rev) return state;
  const found = state.earlier?.find((s) => s.rev === rev);
  if (!found) throw rejections.revisionNotFound(rev, state.rev);
  return found;
};
