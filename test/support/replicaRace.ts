/** What one round of the replica race saw that a single process would never answer. */
export interface RaceOutcome {
  rounds: number;
  /** A read that did not reflect a write acknowledged before it was sent. */
  stale: string[];
  /** A write with the right `rev` (or a create) refused. */
  refused: string[];
  millis: number;
}

const json = { 'content-type': 'application/json' };

/**
 * The race of issue 20, through two replicas A and B of one log: create on A → fetch on B → update
 * on A → update on B with the new `rev` → tag on A → fetch by tag on B. Every step follows the
 * acknowledgement of the one before, so each must see it, whichever replica answers.
 */
export const replicaRace = async (a: string, b: string, project: string, rounds: number): Promise<RaceOutcome> => {
  const stale: string[] = [];
  const refused: string[] = [];
  const started = performance.now();
  const expect = async (what: string, into: string[], request: Promise<Response>, status: number): Promise<Record<string, unknown>> => {
    const reply = await request;
    const body = (await reply.json()) as Record<string, unknown>;
    if (reply.status !== status) into.push(`${what}: ${reply.status} ${JSON.stringify(body).slice(0, 200)}`);
    return body;
  };
  for (let round = 0; round < rounds; round++) {
    const item = `${a}/v1/resources/${project}/_/race-${round}`;
    const onB = `${b}/v1/resources/${project}/_/race-${round}`;
    await expect(`round ${round} create on A`, refused, fetch(item, { method: 'PUT', headers: json, body: JSON.stringify({ 'http://x/n': 0 }) }), 201);
    const fetched = await expect(`round ${round} fetch on B`, stale, fetch(onB), 200);
    if (fetched['_rev'] !== undefined && fetched['_rev'] !== 1) stale.push(`round ${round} fetch on B: _rev ${String(fetched['_rev'])}`);
    await expect(
      `round ${round} update on A`,
      refused,
      fetch(`${item}?rev=1`, { method: 'PUT', headers: json, body: JSON.stringify({ 'http://x/n': 1 }) }),
      200,
    );
    await expect(
      `round ${round} update on B`,
      refused,
      fetch(`${onB}?rev=2`, { method: 'PUT', headers: json, body: JSON.stringify({ 'http://x/n': 2 }) }),
      200,
    );
    await expect(
      `round ${round} tag on A`,
      refused,
      fetch(`${item}/tags?rev=3`, { method: 'POST', headers: json, body: JSON.stringify({ tag: 't', rev: 2 }) }),
      201,
    );
    const tagged = await expect(`round ${round} fetch by tag on B`, stale, fetch(`${onB}?tag=t`), 200);
    if (tagged['http://x/n'] !== undefined && tagged['http://x/n'] !== 1)
      stale.push(`round ${round} fetch by tag on B: ${JSON.stringify(tagged).slice(0, 200)}`);
  }
  return { rounds, stale, refused, millis: Math.round(performance.now() - started) };
};
