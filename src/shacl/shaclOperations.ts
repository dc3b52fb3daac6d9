import type { JsonObject } from '../kernel/json.js';
import type { ValidationReport } from '../domain/resources/SchemaResolver.js';
import { Lru } from '../util/Lru.js';
import { PartMissing } from '../workers/Executor.js';
import { ShapesValidator } from './ShapesValidator.js';

/** The CPU-heavy SHACL operation, a plain function of plain data (see `JsonLdOperations`). */
export interface ShaclOperations {
  /** Validates the N-Triples of `expanded` against a shape set known by `shapes.key` (its text sent when this executor has not seen it). */
  validate(args: {
    shapes: { key: string; text?: string; format: 'N-Triples' | 'Turtle' };
    data: { expanded: JsonObject[] } | { ntriples: string };
  }): Promise<ValidationReport>;
}

/** Validation with its own cache of compiled shape sets; `toNQuads` converts expanded data first. */
export const shaclOperations = (toNQuads: (args: { expanded: JsonObject[] }) => Promise<string>): ShaclOperations => {
  const validators = new Lru<string, ShapesValidator>(200);
  return {
    validate: async ({ shapes, data }) => {
      let validator = validators.get(shapes.key);
      if (!validator) {
        if (shapes.text === undefined) throw new PartMissing(shapes.key);
        validator = new ShapesValidator(shapes.text, shapes.format);
        validators.set(shapes.key, validator);
      }
      return validator.validate('ntriples' in data ? data.ntriples : await toNQuads(data));
    },
  };
};
