import type { Audit, EventBase } from '../Metadata.js';
import { created, touched } from '../Metadata.js';
import { rejections } from '../rejections.js';
import type { Rejection } from '../../kernel/Rejection.js';
import type { EarlierRevisions } from '../earlierRevisions.js';

export interface OrgState extends Audit, EarlierRevisions<OrgState> {
  label: string;
  uuid: string;
  description?: string;
}

export type OrgCommand =
  | { type: 'Create'; label: string; uuid: string; description?: string; instant: string; subject: string }
  | { type: 'Update'; label: string; rev: number; description?: string; instant: string; subject: string }
  | { type: 'Deprecate'; label: string; rev: number; instant: string; subject: string };

export type OrgEvent = EventBase & { label: string; uuid: string } & (
    { type: 'OrganizationCreated'; description?: string } | { type: 'OrganizationUpdated'; description?: string } | { type: 'OrganizationDeprecated' }
  );

export const evaluateOrg = (state: OrgState | undefined, cmd: OrgCommand): OrgEvent | Rejection => {
  const base = { label: cmd.label, instant: cmd.instant, subject: cmd.subject };
  if (cmd.type === 'Create') {
    if (state) return rejections.organizationAlreadyExists(cmd.label);
    return { ...base, type: 'OrganizationCreated', uuid: cmd.uuid, rev: 1, ...withDescription(cmd.description) };
  }
  if (!state) return rejections.organizationNotFound(cmd.label);
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  if (state.deprecated) return rejections.organizationIsDeprecated(cmd.label);
  const next = { ...base, uuid: state.uuid, rev: state.rev + 1 };
  return cmd.type === 'Update' ? { ...next, type: 'OrganizationUpdated', ...withDescription(cmd.description) } : { ...next, type: 'OrganizationDeprecated' };
};

export const nextOrg = (state: OrgState | undefined, event: OrgEvent): OrgState | undefined => {
  switch (event.type) {
    case 'OrganizationCreated':
      return { ...created(event), label: event.label, uuid: event.uuid, ...withDescription(event.description) };
    case 'OrganizationUpdated':
      if (!state) return state;
      return touched<OrgState>({ ...state, description: undefined }, event, withDescription(event.description));
    case 'OrganizationDeprecated':
      return state && touched(state, event, { deprecated: true });
  }
};

const withDescription = (description: string | undefined) => (description === undefined ? {} : { description });
