import { expect } from 'chai';
import type { AclCheck } from '../../src/kernel/AclCheck.js';
import { Resolution } from '../../src/resolvers/Resolution.js';
import type { ResolverState } from '../../src/resolvers/Resolver.js';
import type { ResolverService } from '../../src/resolvers/ResolverService.js';

/** A resolution over many projects hands the event loop over between them once its slice has run (issue 32, finding 10). */
describe('resolution in slices', () => {
  const projects = Array.from({ length: 50 }, (_, i) => `o/p${i}`);
  const resolver = {
    id: 'http://x/r',
    deprecated: false,
    value: { fields: { type: 'CrossProject', priority: 1, projects, identityResolution: { identities: [{ type: 'Anonymous' }] } } },
  } as unknown as ResolverState;
  const resolvers = { active: () => [resolver] } as unknown as ResolverService;
  const acl = { authorize: async () => undefined } as unknown as AclCheck;

  /** Resolves while other work asks for the loop at every turn; returns after how many projects it got it. */
  const run = async (sliceMillis: number) => {
    let looked = 0;
    let done = false;
    const turns: number[] = [];
    const other = () => {
      if (done) return;
      turns.push(looked);
      setImmediate(other);
    };
    setImmediate(other);
    const resolution = new Resolution(resolvers, async () => (looked++, undefined), acl, sliceMillis);
    const outcome = await resolution.resolve('o/q', 'http://x/a', {}, undefined);
    done = true;
    return { turns, looked, rejections: outcome.history[0]!.rejections.length };
  };

  it('lets other work run between two projects once its slice is over, and walks every project', async () => {
    // A slice of 0 ms is over at once: the loop is handed over before each project.
    const { turns, looked, rejections } = await run(0);
    expect([looked, rejections]).to.deep.equal([50, 50]);
    expect(turns).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
  });

  it('runs a short resolution in one piece', async () => {
    expect((await run(60_000)).turns).to.deep.equal([]);
  });
});
