import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StorageOptions } from '../../src/files/StorageOptions.js';
import { storageConfig } from '../../src/config/storageConfig.js';

/** Storage configuration for a test: a fresh temporary default volume, plus the keys given (dotted names). */
export const storagesConfig = (keys: Record<string, string> = {}): { config: StorageOptions; volume: string } => {
  const volume = mkdtempSync(join(tmpdir(), 'registry-volume-'));
  const all: Record<string, string> = { 'plugins.storage.storages.disk.default-volume': volume, 'plugins.storage.storages.password': 'test-password', ...keys };
  const config = storageConfig(
    (key) => all[key],
    (name, problem) => new Error(`${name}: ${problem}`),
  );
  return { config, volume };
};

/** A multipart/form-data body with one part per entry. */
export const multipart = (parts: { name: string; filename?: string; type?: string; data: Buffer | string }[]): { body: Buffer; type: string } => {
  const boundary = `----registry${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`, 'utf8'),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, 'utf8'),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
};

/** Sends a file as the `file` part. */
export const upload = async (url: string, method: 'POST' | 'PUT', data: Buffer | string, filename = 'data.bin', type?: string) => {
  const { body, type: contentType } = multipart([{ name: 'file', filename, ...(type ? { type } : {}), data }]);
  const res = await fetch(url, { method, body: new Uint8Array(body), headers: { 'content-type': contentType } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};
