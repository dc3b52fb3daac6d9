/** A setting that cannot be used; start-up fails naming it. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`Invalid configuration '${setting}': ${problem}`);
  }
}
