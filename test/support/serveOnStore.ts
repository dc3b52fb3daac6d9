import type { Config } from '../../src/config/Config.js';
import type { client } from './client.js';
import { serve } from './server.js';
import type { TestServer } from './server.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from './virtuoso.js';

/**
 * Starts a registry for the enclosing `describe` on the embedded store, or with `external` on the
 * shared test Virtuoso (emptied first), so one suite runs on both stores alike.
 */
export const serveOnStore = (external: boolean, bind: (server: TestServer, api: ReturnType<typeof client>) => void, overrides: Partial<Config> = {}): void => {
  const settings: Partial<Config> = { ...overrides };
  if (external)
    before(async () => {
      settings.sparqlStore = (await useVirtuoso()).server;
      await clearVirtuoso(settings.sparqlStore);
    });
  serve(bind, settings);
  if (external) after(releaseVirtuoso);
};
