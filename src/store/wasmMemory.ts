import oxigraph from 'oxigraph';

/** One allocation inside 32-bit WASM cannot exceed 2 GiB (Rust panics with "capacity overflow"). */
export const LARGEST_CLAIM = 1024 * 1024 * 1024;
/** Stay clear of the 4 GiB ceiling of 32-bit WASM memory: claims never go past this. */
export const CLAIM_CEILING = 3.25 * 1024 * 1024 * 1024;

/**
 * Grows the WASM memory of Oxigraph (one per thread, shared by its stores) by about `bytes` in one
 * step: a block is allocated and at once freed, and the allocator keeps it for the data that
 * follows. Left alone, the memory grows 64 KiB at a time and every growth makes V8 run a full
 * garbage collection (see OxigraphGraphStore).
 */
export const claimWasmMemory = (store: oxigraph.Store, bytes: number): void => {
  const size = Math.floor(Math.min(bytes, LARGEST_CLAIM));
  if (size < 1024 * 1024) return;
  // A zero-filled buffer of the claim's size, dropped after: its pages are never written, so never
  // resident, but V8 counts it as external memory while it lives (one kept for every claim held
  // 1 GiB of it from the first claim on). Claims are few: the blocks grow with the data.
  const zeros = new Uint8Array(size);
  try {
    // An all-zero input is copied into WASM memory, then refused by the parser at its first byte.
    store.load(zeros, { format: 'application/n-quads' });
  } catch {
    /* expected: the block was allocated and released */
  }
};

/** The smallest and largest block claimed ahead while a store grows. */
const SMALLEST_BLOCK = 16 * 1024 * 1024;
const LARGEST_BLOCK = 256 * 1024 * 1024;

/**
 * Claims a store's WASM memory ahead of its data in blocks of a quarter of what it holds (16 to
 * 256 MiB), each claimed once the last is used up: the memory grows in a few steps (a garbage
 * collection each) and never holds much more than the data. A claimed block is resident at once
 * (its bytes are written) and WASM memory never shrinks, so blocks sized on the text written (8×
 * its bytes, 256 MiB at least) held 2-7× the data: at 10,000 resources of ~25 properties the main
 * store's memory was 768 MiB for about 100 MiB of data.
 */
export class MemoryClaims {
  /** Estimated bytes of data held, and claimed ahead but not used yet. */
  private data = 0;
  private ahead = 0;

  constructor(
    private readonly store: oxigraph.Store,
    /** WASM bytes a byte of text loaded takes (measured per layout). */
    private readonly perTextByte: number,
  ) {}

  /** Before loading `bytes` of text. */
  grow(bytes: number): void {
    const need = bytes * this.perTextByte;
    this.data += need;
    this.ahead -= need;
    // A small store grows on its own: a few growths while the heap is small cost less than a block.
    if (this.ahead > 0 || this.data < SMALLEST_BLOCK) return;
    const block = Math.min(Math.max(this.data / 4, SMALLEST_BLOCK), LARGEST_BLOCK, CLAIM_CEILING - this.data);
    claimWasmMemory(this.store, block);
    this.ahead = block;
  }

  /** Before a bulk load of about `bytes` of text: what it will take, claimed at once. */
  prepare(bytes: number): void {
    const need = Math.min(bytes * this.perTextByte, CLAIM_CEILING - this.data);
    claimWasmMemory(this.store, need);
    this.ahead = Math.max(this.ahead, need);
  }
}
