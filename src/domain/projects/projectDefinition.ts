import type { LogEvent } from '../../events/EventLog.js';
import type { CommandDefinition, KindDefinition } from '../KindDefinition.js';
import { rejections } from '../rejections.js';
import { context } from '../../kernel/vocabulary.js';
import type { ProjectCommand, ProjectEvent, ProjectState } from './Project.js';
import { evaluateProject, nextProject } from './Project.js';
import { keepEarlier } from '../earlierRevisions.js';

const eventOf = (logged: LogEvent) => logged.event as unknown as ProjectEvent;

/** Projects: kept by `org/label`; their events carry the project fields when they change them. */
export const projectDefinition: KindDefinition<ProjectState> & CommandDefinition<ProjectState, ProjectCommand, ProjectEvent> = {
  kind: 'projects',
  stateKey: (logged) => `${eventOf(logged).org}/${eventOf(logged).label}`,
  keyOf: (state) => `${state.org}/${state.label}`,
  next: (state, logged) => {
    const next = nextProject(state, eventOf(logged));
    return keepEarlier(state, next && eventOf(logged).type === 'ProjectCreated' ? { ...next, createdSeq: logged.seq } : next);
  },
  evaluate: evaluateProject,
  // A deleted project's label starts again from nothing.
  revAfter: (event) => (event.type === 'ProjectMarkedForDeletion' ? 0 : event.rev),
  conflict: (state, cmd, actual) =>
    state ? rejections.incorrectRev('rev' in cmd ? cmd.rev : state.rev, actual) : rejections.projectAlreadyExists(`${cmd.org}/${cmd.label}`),
  render: (logged, look) => {
    const e = eventOf(logged);
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
