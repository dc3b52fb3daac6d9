import type { JsonObject } from '../kernel/json.js';
import type { ProjectRef } from '../kernel/labels.js';
import { DocSet } from './dsl/DocSet.js';
import type { SearchDoc } from './dsl/fields.js';
import type { TextIndex } from './TextIndex.js';

/** What stands at the position of a document that is gone: it holds no value. */
const GONE: SearchDoc = { id: '', project: '', source: {} };

/** Past this share of changed or gone positions, the set is read anew rather than carried over. */
const REBUILD_SHARE = 0.25;

/**
 * Scopes (sets of searched projects) kept at once, least recently searched dropped first: callers
 * with different readable projects taking turns each find their own set instead of rebuilding one
 * (about 2 s at 100,000 documents). Each set's columns get an equal share of the column budget.
 */
const KEPT_SCOPES = 4;
const SET_BYTES = (256 * 1024 * 1024) / KEPT_SCOPES;

interface Searched {
  /** The projects searched. */
  scope: string;
  /** The index generation the set reflects. */
  generation: number;
  set: DocSet;
  /** Item node → its position in the set: a document keeps its position across writes. */
  positions: Map<string, number>;
}

/**
 * The documents the search API searches: the current, non-deprecated resources of some projects, as
 * one DocSet. A write makes a new set; it carries over the columns of the previous one, reading only
 * the documents that changed, so that a search right after a write does not read every document again.
 */
export class SearchedDocuments {
  /** By scope, least recently searched first. */
  private readonly searched = new Map<string, Searched>();

  constructor(
    private readonly index: TextIndex,
    private readonly keptScopes = KEPT_SCOPES,
  ) {}

  of(projects: readonly ProjectRef[]): DocSet {
    const scope = projects.join(' ');
    const last = this.searched.get(scope);
    const generation = this.index.generation;
    this.searched.delete(scope);
    const next = last?.generation === generation ? last : (last && this.carried(last, projects, generation)) || this.fresh(scope, projects, generation);
    this.searched.set(scope, next);
    for (const oldest of this.searched.keys()) {
      if (this.searched.size <= this.keptScopes) break;
      this.searched.delete(oldest);
    }
    return next.set;
  }

  /** How many scopes' sets are kept (for tests). */
  get kept(): number {
    return this.searched.size;
  }

  private fresh(scope: string, projects: readonly ProjectRef[], generation: number): Searched {
    const docs: SearchDoc[] = [];
    const positions = new Map<string, number>();
    this.each(projects, (node, project, source) => {
      positions.set(node, docs.length);
      docs.push({ id: String(source['@id']), project, source });
    });
    return { scope, generation, set: new DocSet(docs, SET_BYTES), positions };
  }

  /** The previous set with what changed since; undefined when so much changed that reading anew is cheaper. */
  private carried(last: Searched, projects: readonly ProjectRef[], generation: number): Searched | undefined {
    const before = last.set;
    const docs = before.docs.slice();
    const positions = new Map(last.positions);
    const seen = new Uint8Array(before.size);
    const changed: number[] = [];
    this.each(projects, (node, project, source) => {
      const at = positions.get(node);
      if (at === undefined) {
        positions.set(node, docs.length);
        changed.push(docs.length);
        docs.push({ id: String(source['@id']), project, source });
        return;
      }
      seen[at] = 1;
      if (docs[at]!.source !== source) (changed.push(at), (docs[at] = { id: String(source['@id']), project, source }));
    });
    const dead = new Uint8Array(docs.length);
    let gone = 0;
    for (let i = 0; i < before.size; i++)
      if (!seen[i]) {
        gone++;
        dead[i] = 1;
        if (docs[i] !== GONE) (changed.push(i), (docs[i] = GONE));
      }
    if (changed.length > docs.length * REBUILD_SHARE || gone > docs.length * REBUILD_SHARE) return undefined;
    return { scope: last.scope, generation, set: DocSet.following(before, docs, changed, dead), positions };
  }

  private each(projects: readonly ProjectRef[], visit: (node: string, project: ProjectRef, source: JsonObject) => void): void {
    for (const project of projects)
      for (const [node, source] of this.index.documents('resources', project)) if (source['_deprecated'] !== true) visit(node, project, source);
  }
}
