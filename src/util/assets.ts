import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/**
 * The repository root: `src/util/` (ts) or the build's `src/util/`, two folders below the root (`dist` links to a
 * build, `.dist-<id>`, and Node loads modules from where the link points: scripts/build.mjs).
 */
const projectRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url)))).replace(/\/(?:dist|\.dist-[^/]+)$/, '');

export const assetPath = (...parts: string[]): string => join(projectRoot, ...parts);
