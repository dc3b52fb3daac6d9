import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root, from both `src/` (ts) and `dist/src/` (compiled). */
const here = fileURLToPath(new URL('.', import.meta.url));
export const projectRoot = here.includes('/dist/') ? join(here, '..', '..', '..') : join(here, '..', '..');

export const assetPath = (...parts: string[]): string => join(projectRoot, ...parts);
