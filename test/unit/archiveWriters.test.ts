import { expect } from 'chai';
import type { ArchiveMember } from '../../src/modules/archives/archiveWriters.js';
import { tarStream, zipStream } from '../../src/modules/archives/archiveWriters.js';

/** A member of `chunks` chunks of 64 KiB whose bytes are produced only when pulled; `pulled` counts them. */
const lazyMember = (path: string, chunks: number) => {
  const state = { pulled: 0 };
  const member: ArchiveMember = {
    path,
    size: chunks * 65_536,
    mtime: new Date(0),
    bytes: async function* () {
      for (let i = 0; i < chunks; i++) {
        state.pulled++;
        yield Buffer.alloc(65_536, i % 256);
      }
    },
  };
  return { member, state };
};

describe('archive writers stream: a member’s bytes are read only as the output is consumed', () => {
  for (const [name, write] of [
    ['tar', tarStream],
    ['zip', zipStream],
  ] as const)
    it(`${name}: after the first chunks out, only as many chunks were read in`, async () => {
      const { member, state } = lazyMember('a/b.bin', 1_000);
      const out = write([member])[Symbol.asyncIterator]();
      await out.next(); // the header
      await out.next(); // the first chunk of bytes
      expect(state.pulled).to.equal(1);
      let total = 0;
      for (let r = await out.next(); !r.done; r = await out.next()) total += r.value.length;
      expect(state.pulled).to.equal(1_000);
      expect(total).to.be.greaterThan(999 * 65_536);
    });

  it('refuses a member whose bytes differ from its recorded size instead of writing a corrupt archive', async () => {
    const member: ArchiveMember = { path: 'x', size: 10, mtime: new Date(0), bytes: () => [Buffer.alloc(4)] };
    let failed: unknown;
    try {
      for await (const _ of tarStream([member])) void _;
    } catch (error) {
      failed = error;
    }
    expect(String(failed)).to.include('4 bytes, 10 recorded');
  });
});
