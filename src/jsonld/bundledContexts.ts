import { readdirSync, readFileSync } from 'node:fs';
import { assetPath } from '../util/assets.js';
import { CONTEXTS } from '../kernel/vocabulary.js';

/**
 * The service's own JSON-LD contexts, served from the copies under `src/jsonld/contexts/` and never
 * fetched from the network.
 */
export const loadBundledContexts = (): Map<string, unknown> => {
  const dir = assetPath('src', 'jsonld', 'contexts');
  const contexts = new Map<string, unknown>();
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.json')) contexts.set(`${CONTEXTS}${file}`, JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')));
  }
  return contexts;
};
