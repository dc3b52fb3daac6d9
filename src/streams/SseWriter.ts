import type { ServerResponse } from 'node:http';

/**
 * Writes server-sent events to one response. `write` resolves only once the socket has taken the
 * bytes (or the client left), so a slow or stalled client holds at most one frame in the server's
 * memory and the producer stops pulling from the log meanwhile. A keep-alive comment goes out every
 * `keepAliveMillis` unless the socket is already backed up (then the pending bytes keep it alive).
 */
export class SseWriter {
  private readonly timer: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    keepAliveMillis: number,
  ) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      // Reverse proxies must not buffer the stream.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    // A stream lives as long as the client wants it: no idle timeout on its socket.
    res.socket?.setTimeout(0);
    res.socket?.setNoDelay(true);
    this.timer = setInterval(() => this.keepAlive(), keepAliveMillis);
    this.timer.unref();
    res.once('close', () => this.end());
  }

  get open(): boolean {
    return !this.ended && !this.res.destroyed;
  }

  /** Resolves once the frame is handed to the socket, or the client is gone. */
  async write(chunk: string): Promise<void> {
    if (!this.open) return;
    if (this.res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  private keepAlive(): void {
    if (this.open && !this.res.writableNeedDrain) this.res.write(':\n\n');
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    if (!this.res.writableEnded) this.res.end();
  }
}
