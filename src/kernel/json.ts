/** A JSON object as parsed from a request body or kept in an event. */
export type JsonObject = { [key: string]: unknown };
