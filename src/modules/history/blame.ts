import type { SubjectPath } from '../../kernel/Subject.js';

/** A content revision's triples (canonical lines) and who made it, when. */
export interface ContentRevision {
  rev: number;
  instant: string;
  subject: SubjectPath;
  lines: readonly string[];
}

export interface BlamedTriple {
  triple: string;
  rev: number;
  instant: string;
  subject: SubjectPath;
}

/**
 * Each triple of the last revision with the revision that introduced it: the first of the run of
 * revisions, ending at the last, that all hold it (a triple removed then added again is blamed on
 * its return). `revisions` are the content revisions up to the one blamed, oldest first.
 */
export const blame = (revisions: readonly ContentRevision[]): BlamedTriple[] => {
  const last = revisions[revisions.length - 1];
  if (!last) return [];
  const sets = revisions.map((r) => new Set(r.lines));
  return last.lines.map((triple) => {
    let i = revisions.length - 1;
    while (i > 0 && sets[i - 1]!.has(triple)) i--;
    const by = revisions[i]!;
    return { triple, rev: by.rev, instant: by.instant, subject: by.subject };
  });
};
