/**
 * A typed refusal of a command or request. The domain names the refusal (`type`, a stable machine
 * name from the wire format) and explains it (`reason`); only the HTTP error middleware maps a type
 * to a status code, so nothing below the routes knows about HTTP.
 */
export class Rejection extends Error {
  constructor(
    readonly type: string,
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

