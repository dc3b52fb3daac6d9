import { appendTo } from '../util/appendTo.js';
import type { JsonObject } from '../domain/resources/ResourceEvent.js';

/** Terms seen per project: term → predicate IRI → how many current-or-past revisions used it. */
export type Terms = Record<string, Record<string, Record<string, number>>>;

/** What the catalogue persists of the dictionary: the counts with the log position they were learned up to. */
export interface LearnedTerms {
  position: number;
  terms: Terms;
}

const localName = (iri: string): string => iri.slice(Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#')) + 1);

/**
 * Which property a payload field name stands for in a project, learned from what was written:
 * a root field `name` of a payload whose expanded root has `http://schema.org/name` records that
 * pair. Listings sorted by a bare field name (`sort=name`, as clients of a document index expect)
 * use the property the project's payloads most often mean by it, since each payload may have a
 * context of its own. Only pairs where the property's local name is the field name are learned.
 *
 * Counts are learned at most once per log position: a change applied again (a retry, a replay
 * after a restart from an earlier position) does not count twice.
 */
export class TermDictionary {
  private terms: Terms = {};
  private learnedUpTo = 0;

  /** The log position of the last change learned from (or passed). */
  get position(): number {
    return this.learnedUpTo;
  }

  /** Restart: what was persisted, or nothing (`{ position: 0, terms: {} }`). */
  replace(learned: LearnedTerms): void {
    this.terms = learned.terms;
    this.learnedUpTo = learned.position;
  }

  /** Learns the pairs of one revision made at `seq`, unless that position was learned already. */
  learn(seq: number, project: string, source: JsonObject, root: JsonObject | undefined): void {
    if (seq <= this.learnedUpTo) return;
    this.learnedUpTo = seq;
    if (!root) return;
    const byLocalName = new Map<string, string[]>();
    for (const predicate of Object.keys(root)) {
      if (predicate.startsWith('@')) continue;
      const name = localName(predicate);
      appendTo(byLocalName, name, predicate);
    }
    for (const field of Object.keys(source)) {
      if (field.startsWith('@')) continue;
      for (const predicate of byLocalName.get(field) ?? []) {
        const forProject = (this.terms[project] ??= {});
        const forTerm = (forProject[field] ??= {});
        forTerm[predicate] = (forTerm[predicate] ?? 0) + 1;
      }
    }
  }

  /** A change at `seq` taught nothing: the position moves past it. */
  pass(seq: number): void {
    if (seq > this.learnedUpTo) this.learnedUpTo = seq;
  }

  /** The property most often meant by `term` in the projects (all projects when undefined). */
  predicateFor(term: string, projects?: string[]): string | undefined {
    const counts = new Map<string, number>();
    for (const project of projects ?? Object.keys(this.terms)) {
      for (const [predicate, n] of Object.entries(this.terms[project]?.[term] ?? {})) counts.set(predicate, (counts.get(predicate) ?? 0) + n);
    }
    let best: string | undefined;
    for (const [predicate, n] of counts) if (best === undefined || n > counts.get(best)! || (n === counts.get(best)! && predicate < best)) best = predicate;
    return best;
  }

  /** The counts as text now, with their position: a copy, never the live object (learning goes on while it is written). */
  serialize(): string {
    return JSON.stringify({ position: this.learnedUpTo, terms: this.terms } satisfies LearnedTerms);
  }
}
