/**
 * A typed refusal of a command or request. The domain names the refusal (`type`, a stable machine
 * name from the wire format) and explains it (`reason`); only the HTTP error middleware maps a type
 * to a status code, so nothing below the routes knows about HTTP.
 */
export class Rejection<T extends string = string> extends Error {
  constructor(
    readonly type: T,
    reason: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(reason);
    this.name = type;
  }

  get reason(): string {
    return this.message;
  }
}

/** The rejection types a family of rejection builders can raise. */
export type RejectionTypes<Family> = {
  [K in keyof Family]: Family[K] extends (...args: never[]) => Rejection<infer T> ? T : never;
}[keyof Family];
