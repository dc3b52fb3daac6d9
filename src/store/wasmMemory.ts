import oxigraph from 'oxigraph';

/** One allocation inside 32-bit WASM cannot exceed 2 GiB (Rust panics with "capacity overflow"). */
export const LARGEST_CLAIM = 1024 * 1024 * 1024;
/** Stay clear of the 4 GiB ceiling of 32-bit WASM memory: claims never go past this. */
export const CLAIM_CEILING = 3.25 * 1024 * 1024 * 1024;

let zeros: Uint8Array | undefined;

/**
 * Grows the WASM memory of Oxigraph (one per thread, shared by its stores) by about `bytes` in one
 * step: a block is allocated and at once freed, and the allocator keeps it for the data that
 * follows. Left alone, the memory grows 64 KiB at a time and every growth makes V8 run a full
 * garbage collection (see OxigraphGraphStore).
 */
export const claimWasmMemory = (store: oxigraph.Store, bytes: number): void => {
  const size = Math.floor(Math.min(bytes, LARGEST_CLAIM));
  if (size < 1024 * 1024) return;
  // One zero-filled buffer serves every claim: a fresh 256 MiB array per claim is external
  // memory V8 answers with a garbage collection of its own.
  zeros ??= new Uint8Array(LARGEST_CLAIM);
  try {
    // An all-zero input is copied into WASM memory, then refused by the parser at its first byte.
    store.load(zeros.subarray(0, size), { format: 'application/n-quads' });
  } catch {
    /* expected: the block was allocated and released */
  }
};
