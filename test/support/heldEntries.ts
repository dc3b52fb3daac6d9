import { expect } from 'chai';
import type { client } from './client.js';

/** The entries each read model holds in the replica's memory, as `/metrics` reports them. */
export const heldEntries = async (api: ReturnType<typeof client>): Promise<Record<string, number>> => {
  const res = await api.get('/metrics');
  expect(res.status).to.equal(200);
  const held: Record<string, number> = {};
  for (const [, model, value] of res.text.matchAll(/^registry_read_model_entries\{model="([^"]+)"\} (\S+)$/gm)) held[model!] = Number(value);
  return held;
};
