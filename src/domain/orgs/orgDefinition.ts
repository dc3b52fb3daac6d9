import type { LogEvent } from '../../events/EventLog.js';
import type { CommandDefinition, KindDefinition } from '../KindDefinition.js';
import { rejections } from '../rejections.js';
import { context } from '../../kernel/vocabulary.js';
import type { OrgCommand, OrgEvent, OrgState } from './Org.js';
import { evaluateOrg, nextOrg } from './Org.js';
import { keepEarlier } from '../earlierRevisions.js';

const eventOf = (logged: LogEvent) => logged.event as unknown as OrgEvent;

/** Organizations: kept by label, rendered on the global stream as Delta renders them. */
export const orgDefinition: KindDefinition<OrgState> & CommandDefinition<OrgState, OrgCommand, OrgEvent> = {
  kind: 'orgs',
  stateKey: (logged) => eventOf(logged).label,
  keyOf: (state) => state.label,
  next: (state, logged) => keepEarlier(state, nextOrg(state, eventOf(logged))),
  evaluate: evaluateOrg,
  conflict: (state, cmd, actual) =>
    state ? rejections.incorrectRev('rev' in cmd ? cmd.rev : state.rev, actual) : rejections.organizationAlreadyExists(cmd.label),
  render: (logged, look) => {
    const e = eventOf(logged);
    return {
      '@context': [context('metadata'), context('organizations')],
      '@type': e.type,
      _organizationId: look.addresses.org(e.label),
      _label: e.label,
      _uuid: e.uuid,
      ...('description' in e && e.description !== undefined ? { description: e.description } : {}),
      _rev: e.rev,
      _instant: e.instant,
      _subject: look.addresses.subject(e.subject),
    };
  },
};
