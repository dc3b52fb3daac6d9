import { readFileSync } from 'node:fs';
import { assetPath } from '../assets.js';
import { ShapesValidator } from './ShapesValidator.js';

let compiled: ShapesValidator | undefined;

/** The W3C SHACL-for-SHACL shapes (shapes/shacl-shacl.ttl), compiled once: every schema payload is checked against them. */
export const shaclShacl = (): ShapesValidator =>
  (compiled ??= new ShapesValidator(readFileSync(assetPath('shapes', 'shacl-shacl.ttl'), 'utf8'), 'Turtle'));
