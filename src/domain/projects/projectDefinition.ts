import { eventOf } from '../eventOf.js';
import type { CommandDefinition, KindDefinition } from '../KindDefinition.js';
import { rejections } from '../rejections.js';
import { revConflict } from '../revConflict.js';
import { context } from '../../kernel/vocabulary.js';
import type { ProjectCommand, ProjectEvent, ProjectState } from './Project.js';
import { evaluateProject, nextProject } from './Project.js';
import { keepEarlier } from '../earlierRevisions.js';

/** Projects: kept by `org/label`; their events carry the project fields when they change them. */
export const projectDefinition: KindDefinition<ProjectState> & CommandDefinition<ProjectState, ProjectCommand, ProjectEvent> = {
  kind: 'projects',
  stateKey: (logged) => {
    const { org, label } = eventOf<ProjectEvent>(logged);
    return `${org}/${label}`;
  },
  keyOf: (state) => `${state.org}/${state.label}`,
  next: (state, logged) => {
    const event = eventOf<ProjectEvent>(logged);
    const next = nextProject(state, event);
    return keepEarlier(state, next && event.type === 'ProjectCreated' ? { ...next, createdSeq: logged.seq } : next);
  },
  evaluate: evaluateProject,
  // A deleted project's label starts again from nothing.
  revAfter: (event) => (event.type === 'ProjectMarkedForDeletion' ? 0 : event.rev),
  conflict: revConflict((cmd) => rejections.projectAlreadyExists(`${cmd.org}/${cmd.label}`)),
  render: (logged, look) => {
    const e = eventOf<ProjectEvent>(logged);
    const self = look.addresses.project(`${e.org}/${e.label}`);
    return {
      '@context': [context('metadata'), context('projects')],
      '@type': e.type,
      _projectId: self,
      _resourceId: self,
      _label: e.label,
      _uuid: e.uuid,
      _organizationLabel: e.org,
      _organizationUuid: e.orgUuid,
      ...('fields' in e ? e.fields : {}),
      _rev: e.rev,
      _instant: e.instant,
      _subject: look.addresses.subject(e.subject),
    };
  },
};
