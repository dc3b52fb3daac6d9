import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import type { SecretBox } from './storages/StorageService.js';

/**
 * AES-256-GCM with a key derived (scrypt) from the configured password: a sealed secret is
 * `v1.{iv}.{tag}.{ciphertext}` in base64url; tampering makes opening fail.
 */
export class AesSecretBox implements SecretBox {
  private readonly key: Buffer;

  constructor(password: string, salt = 'registry-storage-secrets') {
    this.key = scryptSync(password, salt, 32);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const text = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), text.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, text] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || text === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(text, 'base64url')), decipher.final()]).toString('utf8');
  }
}
