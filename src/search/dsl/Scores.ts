/**
 * A query's result over a DocSet, one entry per document: its score, NaN where it does not match
 * (NaN propagates through sums, so a required clause that fails removes the document by itself).
 */
export type Scores = Float64Array;

export const noMatches = (size: number): Scores => new Float64Array(size).fill(NaN);

/** The positions of the documents that match. */
export const matchedPositions = (scores: Scores, dead?: Uint8Array): number[] => {
  const out: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] === scores[i] && !dead?.[i]) out.push(i);
  return out;
};

/** The scores of the documents at these positions, the others not matching: what a query evaluated within a subset starts from. */
export const only = (size: number, positions: readonly number[]): Scores => {
  const out = noMatches(size);
  for (const i of positions) out[i] = 0;
  return out;
};

/**
 * A compiled query: the scores of every document of the set (NaN: no match), computed a whole
 * field at a time. Documents already out in `within` (NaN there) need not be evaluated: a caller
 * never reads their entry.
 */
export type Query = (within?: Scores) => Scores;

export const scaled = (scores: Scores, boost: number): Scores => {
  if (boost !== 1) for (let i = 0; i < scores.length; i++) scores[i]! *= boost;
  return scores;
};

/** Which documents are still in before the clauses of a `bool`: all (score 0), or those of the enclosing query. */
export const startFrom = (size: number, within: Scores | undefined): Scores => {
  const acc = new Float64Array(size);
  if (within) for (let i = 0; i < size; i++) if (within[i] !== within[i]) acc[i] = NaN;
  return acc;
};

/** Adds each required clause's score (a miss is NaN, which stays), evaluating each only where the document is still in. */
export const must = (acc: Scores, clauses: Query[]) => {
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) acc[i]! += s[i]!;
  }
};

/** Removes the documents a clause does not match, without adding its score. */
export const filter = (acc: Scores, clauses: Query[]) => {
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] !== s[i]) acc[i] = NaN;
  }
};

export const mustNot = (acc: Scores, clauses: Query[]) => {
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] === s[i]) acc[i] = NaN;
  }
};

/** Adds the score of each optional clause that matches; returns how many matched each document. */
export const should = (acc: Scores, clauses: Query[]): Uint16Array => {
  const matched = new Uint16Array(acc.length);
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] === s[i]) (matched[i]++, (acc[i]! += s[i]!));
  }
  return matched;
};
