import type { SubjectPath } from '../kernel/Subject.js';

/** Audit fields every versioned item carries. */
export interface Audit {
  rev: number;
  deprecated: boolean;
  createdAt: string;
  createdBy: SubjectPath;
  updatedAt: string;
  updatedBy: SubjectPath;
}

/** Fields every event carries, whatever its kind. */
export interface EventBase {
  rev: number;
  instant: string;
  subject: SubjectPath;
}

export const created = (e: EventBase): Audit => ({
  rev: e.rev,
  deprecated: false,
  createdAt: e.instant,
  createdBy: e.subject,
  updatedAt: e.instant,
  updatedBy: e.subject,
});

export const touched = <S extends Audit>(s: S, e: EventBase, patch: Partial<S> = {}): S => ({
  ...s,
  ...patch,
  rev: e.rev,
  updatedAt: e.instant,
  updatedBy: e.subject,
});
