/** One line of an NDJSON body: its text, or `tooLarge` when it ran past the limit (its bytes were dropped). */
export type BodyLine = { line: number; text: string } | { line: number; tooLarge: true };

const NEWLINE = 0x0a;

/**
 * The lines of a streamed body, numbered from 1, each at most `maxBytes` bytes (a longer one is
 * reported and skipped up to its newline, never held whole). Blank lines count but are not handed
 * on. A last line without its newline is handed on only when `complete()` says the body arrived
 * whole: the rest of a line cut off by a dropped connection is never read as a line.
 */
export async function* ndjsonLines(chunks: AsyncIterable<Buffer>, maxBytes: number, complete: () => boolean): AsyncGenerator<BodyLine> {
  let parts: Buffer[] = [];
  let held = 0;
  let line = 0;
  let skipping = false;
  const take = (): BodyLine | undefined => {
    line++;
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    held = 0;
    return text.trim() === '' ? undefined : { line, text };
  };
  for await (const chunk of chunks) {
    let from = 0;
    while (from < chunk.length) {
      const end = chunk.indexOf(NEWLINE, from);
      const piece = chunk.subarray(from, end === -1 ? chunk.length : end);
      if (!skipping) {
        held += piece.length;
        if (held > maxBytes) {
          skipping = true;
          parts = [];
          held = 0;
        } else parts.push(piece);
      }
      if (end === -1) break;
      if (skipping) {
        skipping = false;
        yield { line: ++line, tooLarge: true };
      } else {
        const taken = take();
        if (taken) yield taken;
      }
      from = end + 1;
    }
  }
  if (!complete()) return;
  if (skipping) yield { line: ++line, tooLarge: true };
  else if (held > 0) {
    const taken = take();
    if (taken) yield taken;
  }
}
