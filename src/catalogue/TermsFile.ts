import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFile } from '../util/replaceFile.js';
import type { LearnedTerms } from './TermDictionary.js';

/** The term dictionary as the catalogue last persisted it, with its own log position; replaced atomically. */
export class TermsFile {
  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  /** Undefined when absent or unreadable: the terms are learned again from the log. */
  load(): LearnedTerms | undefined {
    if (!existsSync(this.path)) return undefined;
    try {
      const stored = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<LearnedTerms>;
      if (!Number.isSafeInteger(stored.position) || !stored.terms || typeof stored.terms !== 'object') return undefined;
      return { position: stored.position!, terms: stored.terms };
    } catch {
      return undefined;
    }
  }

  /** `text`: the dictionary serialized at one instant (`TermDictionary.serialize`). */
  save(text: string): void {
    replaceFile(this.path, text);
  }
}
