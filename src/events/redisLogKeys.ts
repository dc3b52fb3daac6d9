/**
 * The names of one log's keys: all under one hash tag, so Redis Cluster keeps them in one slot (the
 * append script touches four).
 */
export const logKeys = (prefix: string) => ({
  stream: `{${prefix}}:events`,
  seq: `{${prefix}}:seq`,
  /** Each item's revision, positions and latest state, one field an item (itemRecord.ts). */
  items: `{${prefix}}:items`,
  deleted: `{${prefix}}:deleted`,
});

export type LogKeys = ReturnType<typeof logKeys>;

/** The hashes an item was spread over before `items` (see redisLayout.ts). */
export const splitItemKeys = (prefix: string) => ({ revs: `{${prefix}}:revs`, seqs: `{${prefix}}:seqs`, states: `{${prefix}}:states` });

/** The names before the hash tag. */
export const untaggedKeys = (prefix: string) => ({ stream: `${prefix}:events`, seq: `${prefix}:seq`, revs: `${prefix}:revs`, seqs: `${prefix}:seqs` });
