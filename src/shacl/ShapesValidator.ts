import { Parser } from 'n3';
import type { DatasetCore, Quad, Term } from '@rdfjs/types';
import SHACLValidator from 'rdf-validate-shacl';
import factory from 'rdf-validate-shacl/src/defaultEnv.js';
import type { ValidationReport } from '../domain/resources/SchemaResolver.js';
import { reportJson } from './reportJson.js';

/**
 * One compiled shape set. Compiling (building the validator's shapes graph) is the expensive step,
 * so a shape set is compiled once and reused for every validation against it
 * (reference/dependencies.md: 3k validations/s reused, 33/s rebuilt per request).
 */
export class ShapesValidator {
  private readonly validator: SHACLValidator;

  /** `shapes` is N-Triples (or N-Quads in the default graph) text; `format` names Turtle for bundled files. */
  constructor(shapes: string, format: 'N-Triples' | 'Turtle' = 'N-Triples') {
    // `owl:imports` are resolved and merged into `shapes` beforehand (SchemaImports): nothing left to load.
    this.validator = new SHACLValidator(factory.dataset(parse(shapes, format)), { factory, importGraph: () => factory.dataset() });
  }

  /** Validates N-Triples data; counts the focus nodes the shapes target in it. */
  async validate(data: string): Promise<ValidationReport> {
    const dataset = factory.dataset(parse(data, 'N-Triples'));
    const report = await this.validator.validate(dataset);
    const targetedNodes = this.targetedNodes(dataset);
    return { conforms: report.conforms, targetedNodes, json: reportJson(report.conforms, targetedNodes, report.results) };
  }

  /**
   * Distinct focus nodes of every shape with a target. Computed on our own pointer rather than read
   * from the validator, whose data graph is replaced by the next (concurrent) validation.
   */
  private targetedNodes(dataset: DatasetCore): number {
    const data = factory.clownface({ dataset });
    const seen = new Set<string>();
    for (const shape of this.validator.shapesGraph.shapesWithTarget)
      for (const node of shape.getTargetNodes(data) as Term[]) seen.add(`${node.termType}:${node.value}`);
    return seen.size;
  }
}

const parse = (text: string, format: 'N-Triples' | 'Turtle'): Quad[] => new Parser({ format }).parse(text) as unknown as Quad[];
