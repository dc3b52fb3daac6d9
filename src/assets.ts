import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/**
 * The repository root: `src/` (ts) or the build's `src/`, one folder below the root (`dist` links to a
 * build, `.dist-<id>`, and Node loads modules from where the link points: scripts/build.mjs).
 */
export const projectRoot = dirname(dirname(fileURLToPath(import.meta.url))).replace(/\/(?:dist|\.dist-[^/]+)$/, '');

export const assetPath = (...parts: string[]): string => join(projectRoot, ...parts);
