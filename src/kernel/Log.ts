/** Where the service reports what it does: start-up, recovery, refusals. Structured fields, never tokens, secrets or bodies. */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Plain lines on stderr: for tools and for parts built by hand in tests. */
export const consoleLog: Log = {
  info: (message) => console.error(message),
  warn: (message) => console.error(message),
  error: (message, fields) => console.error(message, ...(fields?.['error'] ? [fields['error']] : [])),
};
