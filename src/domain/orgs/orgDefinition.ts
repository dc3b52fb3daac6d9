import { eventOf } from '../eventOf.js';
import type { CommandDefinition, KindDefinition } from '../KindDefinition.js';
import { rejections } from '../rejections.js';
import { revConflict } from '../revConflict.js';
import { context } from '../../kernel/vocabulary.js';
import type { OrgCommand, OrgEvent, OrgState } from './Org.js';
import { evaluateOrg, nextOrg } from './Org.js';
import { keepEarlier } from '../earlierRevisions.js';

/** Organizations: kept by label, rendered on the global stream as Delta renders them. */
export const orgDefinition: KindDefinition<OrgState> & CommandDefinition<OrgState, OrgCommand, OrgEvent> = {
  kind: 'orgs',
  stateKey: (logged) => eventOf<OrgEvent>(logged).label,
  keyOf: (state) => state.label,
  next: (state, logged) => keepEarlier(state, nextOrg(state, eventOf<OrgEvent>(logged))),
  evaluate: evaluateOrg,
  conflict: revConflict((cmd) => rejections.organizationAlreadyExists(cmd.label)),
  render: (logged, look) => {
    const e = eventOf<OrgEvent>(logged);
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
