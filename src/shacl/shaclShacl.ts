import { readFileSync } from 'node:fs';
import { assetPath } from '../util/assets.js';

/** The W3C SHACL-for-SHACL shapes (shapes/shacl-shacl.ttl): every schema payload is checked against them. */
export const SHACL_SHACL = { key: 'shacl-shacl', format: 'Turtle' as const, text: readFileSync(assetPath('shapes', 'shacl-shacl.ttl'), 'utf8') };
