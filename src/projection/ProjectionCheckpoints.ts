/**
 * The durable position of each projection that keeps its read model across restarts: a runner
 * records the last log position it applied after each batch and resumes from it at start. A
 * projection held in memory only (the catalogue's indexes, the embedded SPARQL replica) keeps none:
 * it is rebuilt from the states at every start, and its position starts at the snapshot's.
 */
export interface ProjectionCheckpoints {
  /** The recorded position of a projection, undefined when none was recorded. */
  get(name: string): Promise<number | undefined>;
  /** Records that the projection applied everything up to `position` (the last record wins). */
  set(name: string, position: number): Promise<void>;
}
