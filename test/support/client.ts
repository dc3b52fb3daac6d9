/** A small HTTP client for tests: JSON in, status + parsed body out. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export const call = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
};

/** Bound to one server: `api.get(path)`, `api.put(path, body)`, ... */
export const client = (base: string) => ({
  get: (path: string, headers?: Record<string, string>) => call(base, 'GET', path, undefined, headers),
  head: (path: string, headers?: Record<string, string>) => call(base, 'HEAD', path, undefined, headers),
  post: (path: string, body?: unknown, headers?: Record<string, string>) => call(base, 'POST', path, body, headers),
  put: (path: string, body?: unknown, headers?: Record<string, string>) => call(base, 'PUT', path, body, headers),
  delete: (path: string, headers?: Record<string, string>) => call(base, 'DELETE', path, undefined, headers),
});

export const enc = encodeURIComponent;
