import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { TrackerToken, TrackerUser } from './TokenStore.js';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;

/** The row's name: the user is not readable from the store, and the name binds each ciphertext to its user. */
export const rowName = (user: TrackerUser): string =>
  createHash('sha256')
    .update(JSON.stringify([user.realm, user.subject]))
    .digest('hex');

/** A token encrypted with AES-256-GCM under `key`: a fresh IV per write, the row's name as associated data. */
export const sealToken = (key: Buffer, name: string, token: TrackerToken): string => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv).setAAD(Buffer.from(name));
  const data = Buffer.concat([cipher.update(JSON.stringify(token), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64')).join('.');
};

/** Throws when the row does not decrypt under `key` for that name (another key, another user's row, damage). */
export const openToken = (key: Buffer, name: string, row: string): TrackerToken => {
  const [iv, tag, data] = row.split('.').map((part) => Buffer.from(part, 'base64'));
  const decipher = createDecipheriv(ALGORITHM, key, iv!).setAAD(Buffer.from(name)).setAuthTag(tag!);
  return JSON.parse(Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8')) as TrackerToken;
};
