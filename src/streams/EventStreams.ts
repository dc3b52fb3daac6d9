import type { ServerResponse } from 'node:http';
import type { Log } from '../kernel/Log.js';
import { consoleLog } from '../kernel/Log.js';
import type { EventLog, LogEvent } from '../events/EventLog.js';
import { Lru } from '../util/Lru.js';
import type { EventScope } from './EventScope.js';
import { inScope } from './EventScope.js';
import type { EventRenderers, RenderLookups } from './renderEvent.js';
import { frame, renderEvent } from './renderEvent.js';
import { SseWriter } from './SseWriter.js';
import { requestRejections as rejections } from '../kernel/requestRejections.js';

const CHUNK = 64 * 1024;

export interface EventStreamsOptions {
  keepAliveMillis: number;
  /** Streams one caller may hold open at once (429 TooManyEventStreams beyond): no one caller holds every connection with streams. */
  perCaller: number;
  /** Events read from the log per step; bounds what one stream holds in memory. */
  batchSize?: number;
  log?: Log;
}

/**
 * Serves event streams by pulling from the log: replay with `read` from the resume point, then
 * `waitForNew` and `read` again. One cursor (the last position handled) drives both phases, so the
 * seam between replay and live has no gap and no duplicate. Each stream holds at most one batch and
 * one frame; it stops pulling while its client does not read.
 */
export class EventStreams {
  private readonly streams = new Set<AbortController>();
  /** Open streams by caller (`callerKey`). */
  private readonly byCaller = new Map<string, number>();
  private readonly pages = new Lru<number, Promise<LogEvent[]>>(64);
  private readonly frames = new Lru<number, string>(20_000);

  constructor(
    private readonly log: EventLog,
    private readonly renderers: EventRenderers,
    /** What rendering a page of events needs beyond them, read for that page. */
    private readonly lookups: (events: readonly LogEvent[]) => Promise<RenderLookups>,
    /** Waits until this process has projected up to a position, so rendering finds the project it names. */
    private readonly projected: (seq: number) => Promise<void>,
    private readonly options: EventStreamsOptions,
  ) {}

  /** Streams currently open (released when their client disconnects). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Streams the events of `scope` after position `after` until the client leaves; refused if `caller` holds its share of streams already. */
  async serve(res: ServerResponse, scope: EventScope, after: number, caller: string): Promise<void> {
    const held = this.byCaller.get(caller) ?? 0;
    if (held >= this.options.perCaller) throw rejections.tooManyEventStreams(this.options.perCaller);
    this.byCaller.set(caller, held + 1);
    const stop = new AbortController();
    const writer = new SseWriter(res, this.options.keepAliveMillis);
    const abort = () => stop.abort();
    res.once('close', abort);
    this.streams.add(stop);
    try {
      await this.pump(writer, scope, after, stop.signal);
    } catch (error) {
      if (!stop.signal.aborted) (this.options.log ?? consoleLog).error('event stream failed', { error: String(error) });
    } finally {
      res.off('close', abort);
      this.streams.delete(stop);
      const left = this.byCaller.get(caller)! - 1;
      if (left) this.byCaller.set(caller, left);
      else this.byCaller.delete(caller);
      writer.end();
    }
  }

  private async pump(writer: SseWriter, scope: EventScope, after: number, signal: AbortSignal): Promise<void> {
    let cursor = after;
    while (!signal.aborted && writer.open) {
      const batch = await this.page(cursor);
      if (!batch.length) {
        cursor = await this.pastPruned(cursor);
        await this.log.waitForNew(cursor, signal);
        continue;
      }
      await this.projected(batch[batch.length - 1]!.seq);
      const lookups = await this.lookups(batch.filter((event) => inScope(scope, event) && !this.frames.peek(event.seq)));
      // Frames go out in chunks of about 64 KB: one write per event costs more than the event itself.
      let chunk = '';
      for (const event of batch) {
        if (signal.aborted || !writer.open) return;
        if (inScope(scope, event)) chunk += this.frameOf(event, lookups);
        if (chunk.length >= CHUNK) {
          await writer.write(chunk);
          chunk = '';
        }
        cursor = event.seq;
      }
      if (chunk) await writer.write(chunk);
      // A replay of a long log must not hold the event loop: other requests run between pages.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Streams replaying the same part of the log share its reads: full pages are kept a while, pages being read are shared. */
  private page(after: number): Promise<LogEvent[]> {
    const batchSize = this.options.batchSize ?? 256;
    const kept = this.pages.get(after);
    if (kept) return kept;
    const read = this.log.read(after, batchSize);
    this.pages.set(after, read);
    // Only a full page is final; one that reached the end of the log grows later.
    read.then(
      (events) => events.length < batchSize && this.pages.delete(after),
      () => this.pages.delete(after),
    );
    return read;
  }

  /** An event's frame is the same on every stream that carries it: rendered once, kept a while. */
  private frameOf(event: LogEvent, lookups: RenderLookups): string {
    let framed = this.frames.get(event.seq);
    if (framed === undefined) {
      framed = frame(event.seq, renderEvent(event, this.renderers, lookups));
      this.frames.set(event.seq, framed);
    }
    return framed;
  }

  /**
   * When nothing after `cursor` can be read, positions up to the log's end were pruned: move past
   * them, or waiting would wake at once forever. The end is taken before reading, so an event
   * appended in between is never skipped.
   */
  private async pastPruned(cursor: number): Promise<number> {
    const last = await this.log.lastSeq();
    if (last <= cursor) return cursor;
    const again = await this.log.read(cursor, 1);
    return again.length ? cursor : last;
  }

  /** Forgets every kept page and frame: after a permanent deletion, pruned events must not be served from memory. */
  forget(): void {
    this.pages.clear();
    this.frames.clear();
  }

  /** Ends every open stream (on shutdown). */
  closeAll(): void {
    for (const stop of this.streams) stop.abort();
  }
}
