import type { PreparedWrite } from '../../domain/resources/bulkWrites.js';
import type { ResourceState } from '../../domain/resources/Resource.js';
import type { Committed } from '../../domain/resources/bulkWrites.js';
import { rejections } from '../../domain/rejections.js';
import { nesting, MAX_NESTING } from '../../http/bodyReader.js';
import { Rejection } from '../../kernel/Rejection.js';
import type { BodyLine } from './ndjsonLines.js';
import { isExportRecord } from './exportRecord.js';
import type { ExportedKind } from './exportRecord.js';

/** What one input line came to: the item it wrote (`created`: a new item), or its refusal. */
export type LineOutcome = { line: number; state: ResourceState; created: boolean } | { line: number; rejection: Rejection };

/** How a line becomes a prepared write: a payload (`kind` absent) or a revision of an export. */
export interface LineWriter {
  prepare(parsed: unknown): Promise<PreparedWrite & { kind: ExportedKind }>;
  commit(kind: ExportedKind, writes: readonly PreparedWrite[]): Promise<(Committed | Rejection)[]>;
}

export interface ImportBounds {
  /** Lines read ahead of the last one answered: what bounds the memory an import holds, whatever its body's size. */
  window: number;
  /** Lines appended to the log in one write, at most. */
  batch: number;
}

interface Entry {
  line: number;
  /** Settles to the prepared write, or the line's refusal; never rejects. */
  prepared: Promise<Prepared | Rejection>;
  settled?: Prepared | Rejection;
}

type Prepared = PreparedWrite & { kind: ExportedKind };

/** The refusal of a line before any service sees it: too large, not JSON, too deep. */
const parsed = (line: BodyLine, maxBytes: number): unknown => {
  if ('tooLarge' in line) throw rejections.payloadTooLarge(maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (error) {
    throw rejections.malformedContent(`The line is not JSON: ${(error as Error).message}`);
  }
  if (nesting(value) > MAX_NESTING) throw rejections.malformedContent(`The line nests objects and arrays more than ${MAX_NESTING} levels deep.`);
  return value;
};

const asRejection = (error: unknown): Rejection => {
  if (error instanceof Rejection) return error;
  throw error;
};

/**
 * A bulk import: lines are prepared (parsed, expanded, validated: the worker pool's work) up to
 * `window` ahead, in parallel, and written in order in batches of distinct items, each batch one
 * append to the log; `answer` receives every line's outcome in input order, only once it is durable.
 * A failure that is not a line's own (the log unreachable) ends the import: lines after the last
 * answered one are not written. `stopped()` ends it too, between batches (the client went away).
 */
export const runImport = async (
  lines: AsyncIterable<BodyLine>,
  writer: LineWriter,
  bounds: ImportBounds & { maxLineBytes: number },
  answer: (outcomes: LineOutcome[]) => Promise<void>,
  stopped: () => boolean,
): Promise<void> => {
  const pending: Entry[] = [];
  let ended = false;
  let failure: unknown;
  let wakeCommitter: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const signal = (which: 'committer' | 'reader') => {
    const wake = which === 'committer' ? wakeCommitter : wakeReader;
    if (which === 'committer') wakeCommitter = undefined;
    else wakeReader = undefined;
    wake?.();
  };

  const committer = (async () => {
    while (failure === undefined && !stopped()) {
      if (pending.length === 0) {
        if (ended) return;
        await new Promise<void>((r) => (wakeCommitter = r));
        continue;
      }
      await pending[0]!.prepared;
      const batch = takeBatch(pending, bounds.batch);
      const outcomes = await commitBatch(batch, writer);
      await answer(outcomes);
      pending.splice(0, batch.length);
      signal('reader');
    }
  })().catch((error: unknown) => {
    failure = error;
    signal('reader');
  });

  const room = async (size: number) => {
    while (pending.length > size && failure === undefined && !stopped()) await new Promise<void>((r) => (wakeReader = r));
  };
  try {
    for await (const line of lines) {
      if (failure !== undefined || stopped()) break;
      const { value, refused } = read(line, bounds.maxLineBytes);
      // A schema is prepared once every line before it is written, and every line after it waits for it: they may be validated against it.
      const alone = refused === undefined && isExportRecord(value) && value['_kind'] === 'schemas';
      if (alone) await room(0);
      if (failure !== undefined || stopped()) break;
      pending.push(entryOf(line.line, refused ?? writer.prepare(value).catch(asRejection)));
      signal('committer');
      await room(alone ? 0 : bounds.window - 1);
    }
  } finally {
    ended = true;
    signal('committer');
    await committer;
  }
  if (failure !== undefined) throw failure;
};

const read = (line: BodyLine, maxLineBytes: number): { value?: unknown; refused?: Rejection } => {
  try {
    return { value: parsed(line, maxLineBytes) };
  } catch (error) {
    return { refused: asRejection(error) };
  }
};

const entryOf = (line: number, prepared: Rejection | Promise<Prepared | Rejection>): Entry => {
  const entry: Entry = { line, prepared: Promise.resolve(prepared) };
  void entry.prepared.then((settled) => (entry.settled = settled));
  return entry;
};

/** The prepared lines at the head, in order, up to the first not yet prepared or naming an item already in the batch. */
const takeBatch = (pending: readonly Entry[], max: number): Entry[] => {
  const batch: Entry[] = [];
  const keys = new Set<string>();
  for (const entry of pending) {
    const settled = entry.settled;
    if (settled === undefined || batch.length >= max) break;
    if (!(settled instanceof Rejection)) {
      if (keys.has(settled.key)) break;
      keys.add(settled.key);
    }
    batch.push(entry);
  }
  return batch;
};

const commitBatch = async (batch: readonly Entry[], writer: LineWriter): Promise<LineOutcome[]> => {
  const outcomes = new Map<Entry, LineOutcome>();
  for (const kind of ['schemas', 'resources'] as const) {
    const writes = batch.filter((e) => !(e.settled instanceof Rejection) && e.settled!.kind === kind);
    if (writes.length === 0) continue;
    const results = await writer.commit(
      kind,
      writes.map((e) => e.settled as PreparedWrite),
    );
    writes.forEach((entry, i) => {
      const result = results[i]!;
      outcomes.set(entry, result instanceof Rejection ? { line: entry.line, rejection: result } : { line: entry.line, ...result });
    });
  }
  return batch.map((entry) => outcomes.get(entry) ?? { line: entry.line, rejection: entry.settled as Rejection });
};
