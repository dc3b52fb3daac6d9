/** The user a tracker token belongs to: one row per (realm, subject), as the public system keys them. */
export interface TrackerUser {
  realm: string;
  subject: string;
}

/** A user's latest token: a request token while the flow is under way, an access token once it is complete. */
export interface TrackerToken {
  kind: 'request' | 'access';
  value: string;
}

/** Where users' tokens are kept: saving replaces the user's previous token. */
export interface TokenStore {
  get(user: TrackerUser): Promise<TrackerToken | undefined>;
  save(user: TrackerUser, token: TrackerToken): Promise<void>;
}
