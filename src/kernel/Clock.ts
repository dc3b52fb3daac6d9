/** Time and identity sources, injected so tests and replays control them. */
export interface Clock {
  now(): string;
  uuid(): string;
}

export const systemClock: Clock = {
  now: () => new Date().toISOString(),
  uuid: () => crypto.randomUUID(),
};
