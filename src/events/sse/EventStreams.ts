import type { ServerResponse } from 'node:http';
import type { EventLog } from '../EventLog.js';
import type { EventScope } from './EventScope.js';
import { inScope } from './EventScope.js';
import type { EventRenderers, RenderLookups } from './renderEvent.js';
import { frame, renderEvent } from './renderEvent.js';
import { SseWriter } from './SseWriter.js';

export interface EventStreamsOptions {
  keepAliveMillis: number;
  /** Events read from the log per step; bounds what one stream holds in memory. */
  batchSize?: number;
}

/**
 * Serves event streams by pulling from the log: replay with `read` from the resume point, then
 * `waitForNew` and `read` again. One cursor (the last position handled) drives both phases, so the
 * seam between replay and live has no gap and no duplicate. Each stream holds at most one batch and
 * one frame; it stops pulling while its client does not read.
 */
export class EventStreams {
  private readonly streams = new Set<AbortController>();

  constructor(
    private readonly log: EventLog,
    private readonly renderers: EventRenderers,
    private readonly lookups: RenderLookups,
    /** Waits until this process has projected up to a position, so rendering finds the project it names. */
    private readonly projected: (seq: number) => Promise<void>,
    private readonly options: EventStreamsOptions,
  ) {}

  /** Streams currently open (released when their client disconnects). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Streams the events of `scope` after position `after` until the client leaves. */
  async serve(res: ServerResponse, scope: EventScope, after: number): Promise<void> {
    const stop = new AbortController();
    const writer = new SseWriter(res, this.options.keepAliveMillis);
    const abort = () => stop.abort();
    res.once('close', abort);
    this.streams.add(stop);
    try {
      await this.pump(writer, scope, after, stop.signal);
    } catch (error) {
      if (!stop.signal.aborted) console.error('event stream failed', error);
    } finally {
      res.off('close', abort);
      this.streams.delete(stop);
      writer.end();
    }
  }

  private async pump(writer: SseWriter, scope: EventScope, after: number, signal: AbortSignal): Promise<void> {
    const batchSize = this.options.batchSize ?? 256;
    let cursor = after;
    while (!signal.aborted && writer.open) {
      const batch = await this.log.read(cursor, batchSize);
      if (!batch.length) {
        cursor = await this.pastPruned(cursor);
        await this.log.waitForNew(cursor, signal);
        continue;
      }
      await this.projected(batch[batch.length - 1]!.seq);
      for (const event of batch) {
        if (signal.aborted || !writer.open) return;
        if (inScope(scope, event)) await writer.write(frame(event.seq, renderEvent(event, this.renderers, this.lookups)));
        cursor = event.seq;
      }
    }
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

  /** Ends every open stream (on shutdown). */
  closeAll(): void {
    for (const stop of this.streams) stop.abort();
  }
}
