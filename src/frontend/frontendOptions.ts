/** Delta's `fusion.base` and `fusion.enable-redirects`, plus the realm the built-in frontend signs in through. */
export interface FrontendOptions {
  /** Fetches of items with `Accept: text/html` answer 303 to `{base}/{org}/{project}/resources/{id}`. */
  enableRedirects: boolean;
  /** The frontend's base address (absent: the built-in one, `{baseUrl}/web`). */
  base?: string;
  /** The label of the realm the built-in frontend signs in through (none: anonymous only). */
  realm?: string;
  /** The OAuth client id the built-in frontend presents to that realm's provider. */
  clientId: string;
}
