import { expect } from 'chai';
import type { LogEvent } from '../../src/events/EventLog.js';
import { parseUsageSnapshot, UsageAccounts } from '../../src/modules/files/files/UsageAccounts.js';

const S = 'https://registry/storages/default';
const file = (seq: number, type: string, project: string, bytes: number, instant: string): LogEvent => ({
  seq,
  kind: 'files',
  key: `files/${project}/f${seq}`,
  project,
  rev: 1,
  event: { type, instant, project, id: `f${seq}`, attributes: { bytes }, storage: { id: S } } as unknown as LogEvent['event'],
});
const other = (seq: number, type: string, project: string): LogEvent => ({
  seq,
  kind: 'files',
  key: `files/${project}/f`,
  project,
  rev: 2,
  event: { type, instant: '2026-01-09T00:00:00Z', project } as unknown as LogEvent['event'],
});
const deleted = (seq: number, org: string, label: string): LogEvent => ({
  seq,
  kind: 'projects',
  key: `projects/${org}/${label}`,
  rev: 0,
  event: { type: 'ProjectMarkedForDeletion', instant: '2026-01-10T00:00:00Z', org, label } as unknown as LogEvent['event'],
});

describe('storage usage accounts (issue 34)', () => {
  it('count what creations and updates wrote, not tags or deprecations; a project deletion drops its accounts; an event applied twice counts once', () => {
    const accounts = new UsageAccounts();
    accounts.apply(file(1, 'FileCreated', 'o/p', 5, '2026-01-02T00:00:00Z'));
    accounts.apply(file(2, 'FileUpdated', 'o/p', 4, '2026-01-03T00:00:00Z'));
    accounts.apply(file(3, 'FileCreated', 'o/p2', 7, '2026-01-01T00:00:00Z'));
    accounts.apply(other(4, 'FileTagAdded', 'o/p'));
    accounts.apply(other(5, 'FileDeprecated', 'o/p'));
    accounts.apply(file(2, 'FileUpdated', 'o/p', 4, '2026-01-03T00:00:00Z'));
    expect(accounts.statistics('o/p', S)).to.deep.equal({ files: 2, spaceUsed: 9, lastProcessedEventDateTime: '2026-01-03T00:00:00Z' });
    expect(accounts.statistics('o/p', 'urn:other')).to.deep.equal({ files: 0, spaceUsed: 0 });
    const restored = new UsageAccounts(parseUsageSnapshot(JSON.stringify(accounts.snapshot())));
    expect(restored.position).to.equal(5);
    expect(restored.statistics('o/p2', S)).to.deep.equal({ files: 1, spaceUsed: 7, lastProcessedEventDateTime: '2026-01-01T00:00:00Z' });
    restored.apply(deleted(6, 'o', 'p'));
    expect(restored.statistics('o/p', S)).to.deep.equal({ files: 0, spaceUsed: 0 });
    expect(restored.statistics('o/p2', S).files, 'a project whose label starts with the deleted one').to.equal(1);
    expect(parseUsageSnapshot('{"position":"x"}')).to.equal(undefined);
  });
});
