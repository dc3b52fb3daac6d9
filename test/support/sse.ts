/** One server-sent event as a client sees it. */
export interface SseEvent {
  id: string;
  event: string;
  data: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload: any;
}

export interface SseClient {
  status: number;
  headers: Headers;
  /** Comment lines received so far (keep-alives). */
  comments: number;
  /** Waits for the next `count` events, failing after `deadlineMillis`. */
  take(count: number, deadlineMillis?: number): Promise<SseEvent[]>;
  /** Takes events until `stop` holds for one (included), failing after `deadlineMillis`. */
  until(stop: (e: SseEvent) => boolean, deadlineMillis?: number): Promise<SseEvent[]>;
  close(): void;
}

/** Opens an event stream and parses frames as they arrive. A non-2xx answer is returned with its body in `error`. */
export const openStream = async (url: string, headers: Record<string, string> = {}): Promise<SseClient & { error?: unknown }> => {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  if (!res.ok || !res.body) return { ...closedClient(res), error: await res.json().catch(() => undefined) };
  const queue: SseEvent[] = [];
  let notify: (() => void) | undefined;
  let failure: unknown;
  const client: SseClient = {
    status: res.status,
    headers: res.headers,
    comments: 0,
    take: async (count, deadlineMillis = 10_000) => {
      const deadline = Date.now() + deadlineMillis;
      while (queue.length < count) await wait(deadline, `${count} events (got ${queue.length})`);
      return queue.splice(0, count);
    },
    until: async (stop, deadlineMillis = 10_000) => {
      const deadline = Date.now() + deadlineMillis;
      const out: SseEvent[] = [];
      for (;;) {
        while (!queue.length) await wait(deadline, `a matching event (after ${out.length})`);
        const e = queue.shift()!;
        out.push(e);
        if (stop(e)) return out;
      }
    },
    close: () => abort.abort(),
  };
  const wait = (deadline: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (failure) return reject(failure);
      const left = deadline - Date.now();
      if (left <= 0) return reject(new Error(`timed out waiting for ${what}`));
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), left);
      notify = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) client.comments++;
            const colon = line.indexOf(':');
            if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1);
          }
          if (fields['data'] !== undefined)
            queue.push({ id: fields['id'] ?? '', event: fields['event'] ?? '', data: fields['data'], payload: JSON.parse(fields['data']) });
          notify?.();
        }
        notify?.();
      }
    } catch (error) {
      if (!abort.signal.aborted) failure = error;
    }
    notify?.();
  })();
  return client;
};

const closedClient = (res: Response): SseClient => ({
  status: res.status,
  headers: res.headers,
  comments: 0,
  take: () => Promise.reject(new Error(`stream answered ${res.status}`)),
  until: () => Promise.reject(new Error(`stream answered ${res.status}`)),
  close: () => undefined,
});
