import type { EventDraft } from '../../src/events/EventLog.js';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';

const AT = { instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous' };

/** The draft of a resource creation in `o/p` whose expanded form holds one value (any value, even one the store refuses). */
export const resourceCreated = (id: string, value: object, source: object = { '@id': id }): EventDraft => ({
  key: `resources/o/p/${id}`,
  kind: 'resources',
  org: 'o',
  project: 'o/p',
  rev: 1,
  event: {
    type: 'ResourceCreated',
    id,
    project: 'o/p',
    rev: 1,
    schema: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
    schemaProject: 'o/p',
    types: [],
    source,
    expanded: [{ '@id': id, 'http://x/n': [value] }],
    remoteContexts: [],
    ...AT,
  } as never,
});

/**
 * A journal written directly (as an older version or another tool would have written it): org `o`,
 * project `o/p`, then `drafts` in batches appended together.
 */
export const seedJournal = async (path: string, drafts: EventDraft[]): Promise<void> => {
  const log = await JournalEventLog.open(path);
  await log.append(
    { key: 'orgs/o', kind: 'orgs', org: 'o', rev: 1, event: { type: 'OrganizationCreated', label: 'o', uuid: 'u1', rev: 1, ...AT } as never },
    0,
  );
  const fields = { base: 'http://127.0.0.1/b/', vocab: 'http://127.0.0.1/v/', apiMappings: [] };
  await log.append(
    {
      key: 'projects/o/p',
      kind: 'projects',
      org: 'o',
      project: 'o/p',
      rev: 1,
      event: { type: 'ProjectCreated', org: 'o', label: 'p', uuid: 'u2', orgUuid: 'u1', rev: 1, fields, ...AT } as never,
    },
    0,
  );
  for (let i = 0; i < drafts.length; i += 100) await Promise.all(drafts.slice(i, i + 100).map((d) => log.append(d, 0)));
  await log.close();
};
