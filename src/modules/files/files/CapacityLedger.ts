/** Bytes of a storage's capacity set aside for one upload while it streams. */
export interface CapacityGrant {
  /** How many bytes were set aside: at most what was asked, 0 when nothing is left. */
  readonly bytes: number;
  /**
   * The upload is recorded with `bytes` actually written, by the log's event at `seq`: what was set
   * aside beyond them is given back, and the rest counts until the account has folded that event.
   */
  commit(bytes: number, seq: number): Promise<void>;
  /** The upload failed: everything set aside is given back. */
  release(): Promise<void>;
}

export interface CapacityRequest {
  /** The storage (project and id), one account per storage. */
  storageKey: string;
  /** Its volume: where the account is kept, so every replica writing to the volume shares it. */
  volume: string;
  uuid: string;
  wanted: number;
  capacity: number;
  /**
   * Bytes used by the files of the storage's running account, and the log position it is folded to
   * (a committed upload whose event is at or before it is among them): read once the account is
   * locked, so uploads recorded meanwhile are in it.
   */
  usage(): Promise<{ used: number; position: number }>;
}

/**
 * Capacity reserved before the bytes stream (issue 19: concurrent uploads each saw the room free and
 * all wrote): a grant comes out of what neither the known files nor any other live grant (of this
 * process or of another sharing the volume) takes, atomically.
 */
export interface CapacityLedger {
  reserve(request: CapacityRequest): Promise<CapacityGrant>;
}
