import type { ProjectRef } from './labels.js';
import type { SubjectPath } from './Subject.js';
import { renderPrefix } from './prefixTemplate.js';

/** An id as ONE path segment: `/` becomes `%2F`, `%` becomes `%25` (what clients' encodeURIComponent sends). */
export const idSegment = (id: string): string => encodeURIComponent(id);

/**
 * Every public address the service renders, built once from the configured base URL (wire-format.md,
 * "Addresses"), so nothing else threads the base URL around.
 */
export class Addresses {
  constructor(
    readonly base: string,
    /** Templates of new projects' `base` and `vocab` (configuration, `{{org}}` and `{{project}}`). */
    private readonly prefixes: { base?: string; vocab?: string } = {},
  ) {}

  resource(project: ProjectRef, id: string): string {
    return `${this.base}/v1/resources/${project}/_/${idSegment(id)}`;
  }

  schema(project: ProjectRef, id: string): string {
    return `${this.base}/v1/schemas/${project}/${idSegment(id)}`;
  }

  org(label: string): string {
    return `${this.base}/v1/orgs/${label}`;
  }

  project(ref: ProjectRef): string {
    return `${this.base}/v1/projects/${ref}`;
  }

  /** `{base}/v1/anonymous` or `{base}/v1/realms/{realm}/users/{subject}`. */
  subject(path: SubjectPath): string {
    return `${this.base}/v1/${path}`;
  }

  /** The prefix of every subject address, as the catalogue records subjects. */
  get subjects(): string {
    return `${this.base}/v1/`;
  }

  /** A project's defaults: `base` for relative ids, `vocab` for terms. */
  projectDefaults(org: string, label: string): { base: string; vocab: string } {
    const { base, vocab } = this.prefixes;
    return {
      base: base === undefined ? `${this.base}/v1/resources/${org}/${label}/_/` : renderPrefix(base, org, label),
      vocab: vocab === undefined ? `${this.base}/v1/vocabs/${org}/${label}/` : renderPrefix(vocab, org, label),
    };
  }

  /** An address of this service from a request's path and query. */
  local(pathAndQuery: string): string {
    return `${this.base}${pathAndQuery}`;
  }
}
