/**
 * A query's result over a DocSet, one entry per document: its score, NaN where it does not match
 * (NaN propagates through sums, so a required clause that fails removes the document by itself).
 */
export type Scores = Float64Array;

/**
 * Where the scores arrays of a search come from and go back to: a query owns the array it returns
 * until its caller releases it, and a set of a hundred thousand documents makes 800 kB arrays,
 * which, new for every clause of every search, kept the collector busy on a large heap.
 */
export interface ScoresPool {
  /** An array of the set's size, every entry `fill`. */
  scores(fill: number): Scores;
  /** Gives an array back: nothing may read it afterwards. */
  release(scores: Scores): void;
}

/** The positions of the documents that match. */
export const matchedPositions = (scores: Scores, dead?: Uint8Array): number[] => {
  const out: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] === scores[i] && !dead?.[i]) out.push(i);
  return out;
};

/** The scores of the documents at these positions, the others not matching: what a query evaluated within a subset starts from. */
export const only = (pool: ScoresPool, positions: readonly number[]): Scores => {
  const out = pool.scores(NaN);
  for (const i of positions) out[i] = 0;
  return out;
};

/**
 * A compiled query: the scores of every document of the set (NaN: no match), computed a whole
 * field at a time. Documents already out in `within` (NaN there) need not be evaluated: a caller
 * never reads their entry.
 */
export type Query = (within?: Scores) => Promise<Scores>;

export const scaled = (scores: Scores, boost: number): Scores => {
  if (boost !== 1) for (let i = 0; i < scores.length; i++) scores[i]! *= boost;
  return scores;
};

/** Which documents are still in before the clauses of a `bool`: all (score 0), or those of the enclosing query. */
export const startFrom = (pool: ScoresPool, within: Scores | undefined): Scores => {
  const acc = pool.scores(0);
  if (within) for (let i = 0; i < acc.length; i++) if (within[i] !== within[i]) acc[i] = NaN;
  return acc;
};

/** Adds each required clause's score (a miss is NaN, which stays), evaluating each only where the document is still in. */
export const must = async (pool: ScoresPool, acc: Scores, clauses: Query[]): Promise<void> => {
  for (const q of clauses) {
    const s = await q(acc);
    for (let i = 0; i < acc.length; i++) acc[i]! += s[i]!;
    pool.release(s);
  }
};

/** Removes the documents a clause does not match, without adding its score. */
export const filter = async (pool: ScoresPool, acc: Scores, clauses: Query[]): Promise<void> => {
  for (const q of clauses) {
    const s = await q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] !== s[i]) acc[i] = NaN;
    pool.release(s);
  }
};

export const mustNot = async (pool: ScoresPool, acc: Scores, clauses: Query[]): Promise<void> => {
  for (const q of clauses) {
    const s = await q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] === s[i]) acc[i] = NaN;
    pool.release(s);
  }
};

/** Adds the score of each optional clause that matches; returns how many matched each document. */
export const should = async (pool: ScoresPool, acc: Scores, clauses: Query[]): Promise<Scores> => {
  const matched = pool.scores(0);
  for (const q of clauses) {
    const s = await q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] === s[i]) (matched[i]++, (acc[i]! += s[i]!));
    pool.release(s);
  }
  return matched;
};
