import type { Audit, EventBase } from '../Metadata.js';
import { created, touched } from '../Metadata.js';
import { rejections } from '../rejections.js';
import type { Rejection } from '../../kernel/Rejection.js';
import type { EarlierRevisions } from '../earlierRevisions.js';

export interface ApiMapping {
  prefix: string;
  namespace: string;
}

export interface ProjectFields {
  description?: string;
  base: string;
  vocab: string;
  apiMappings: ApiMapping[];
}

export interface ProjectState extends Audit, ProjectFields, EarlierRevisions<ProjectState> {
  org: string;
  label: string;
  uuid: string;
  orgUuid: string;
  /**
   * The log position of the event that created this project (absent in snapshots older than it):
   * writes in the project carry it, and the log refuses them once a deletion of the project came
   * after it (`EventDraft.within`), so no write in flight outlives the deletion.
   */
  createdSeq?: number;
}

interface Target {
  org: string;
  label: string;
  instant: string;
  subject: string;
}

export type ProjectCommand =
  | (Target & { type: 'Create'; uuid: string; orgUuid: string; fields: ProjectFields })
  | (Target & { type: 'Update'; rev: number; fields: ProjectFields })
  | (Target & { type: 'Deprecate'; rev: number })
  | (Target & { type: 'Delete'; rev: number });

export type ProjectEvent = EventBase & { org: string; label: string; uuid: string; orgUuid: string } & (
    | { type: 'ProjectCreated'; fields: ProjectFields }
    | { type: 'ProjectUpdated'; fields: ProjectFields }
    | { type: 'ProjectDeprecated' }
    /** Delta's name: the project and everything in it are gone; its label may be used again. */
    | { type: 'ProjectMarkedForDeletion' }
  );

export const evaluateProject = (state: ProjectState | undefined, cmd: ProjectCommand): ProjectEvent | Rejection => {
  const ref = `${cmd.org}/${cmd.label}`;
  const base = { org: cmd.org, label: cmd.label, instant: cmd.instant, subject: cmd.subject };
  if (cmd.type === 'Create') {
    if (state) return rejections.projectAlreadyExists(ref);
    return { ...base, type: 'ProjectCreated', uuid: cmd.uuid, orgUuid: cmd.orgUuid, rev: 1, fields: cmd.fields };
  }
  if (!state) return rejections.projectNotFound(ref);
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  const next = { ...base, uuid: state.uuid, orgUuid: state.orgUuid, rev: state.rev + 1 };
  // As in Delta, a deprecated project may still be deleted.
  if (cmd.type === 'Delete') return { ...next, type: 'ProjectMarkedForDeletion' };
  if (state.deprecated) return rejections.projectIsDeprecated(ref);
  return cmd.type === 'Update' ? { ...next, type: 'ProjectUpdated', fields: cmd.fields } : { ...next, type: 'ProjectDeprecated' };
};

export const nextProject = (state: ProjectState | undefined, event: ProjectEvent): ProjectState | undefined => {
  switch (event.type) {
    case 'ProjectCreated':
      return {
        ...created(event),
        org: event.org,
        label: event.label,
        uuid: event.uuid,
        orgUuid: event.orgUuid,
        ...event.fields,
      };
    case 'ProjectUpdated':
      if (!state) return state;
      return touched<ProjectState>({ ...state, description: undefined }, event, { ...event.fields });
    case 'ProjectDeprecated':
      return state && touched(state, event, { deprecated: true });
    case 'ProjectMarkedForDeletion':
      return undefined;
  }
};
