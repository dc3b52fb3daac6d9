/**
 * A query's result over a DocSet, one entry per document: its score, NaN where it does not match
 * (NaN propagates through sums, so a required clause that fails removes the document by itself).
 */
export type Scores = Float64Array;

export const noMatches = (size: number): Scores => new Float64Array(size).fill(NaN);

/** The positions of the documents that match. */
export const matchedPositions = (scores: Scores): number[] => {
  const out: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] === scores[i]) out.push(i);
  return out;
};

/** The scores of the documents at these positions, the others not matching: what a query evaluated within a subset starts from. */
export const only = (size: number, positions: readonly number[]): Scores => {
  const out = noMatches(size);
  for (const i of positions) out[i] = 0;
  return out;
};
