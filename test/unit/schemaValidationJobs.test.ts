import { expect } from 'chai';
import type { ResourceState } from '../../src/domain/resources/Resource.js';
import type { ProjectRef } from '../../src/kernel/labels.js';
import { SchemaValidationJobs } from '../../src/modules/schemaJobs/SchemaValidationJobs.js';

const resource = (i: number): ResourceState =>
  ({
    id: `http://ex.org/r${i}`,
    project: 'o/p',
    schema: 'http://ex.org/s',
    rev: 1,
    deprecated: false,
    contentSeq: i,
    updatedAt: `2026-01-01T00:00:0${i % 10}Z`,
  }) as unknown as ResourceState;

describe('SchemaValidationJobs', () => {
  it('hands the event loop back between slices: other work runs while a job is under way', async () => {
    const order: string[] = [];
    const busy = (millis: number) => {
      const end = performance.now() + millis;
      while (performance.now() < end);
    };
    const jobs = new SchemaValidationJobs({
      resources: async () => Array.from({ length: 20 }, (_, i) => resource(i)),
      // Validation that holds the loop for 2 ms and never awaits anything but itself.
      validate: async (_p, id) => {
        busy(2);
        order.push(id);
        return { conforms: true, targetedNodes: 1, json: {} };
      },
      yieldLoop: () => new Promise((r) => setImmediate(r)),
      sliceMillis: 5,
    });
    const project = 'o/p' as ProjectRef;
    await jobs.start(project);
    // A request arriving meanwhile: its callback runs before the job has gone through every resource.
    await new Promise((r) => setImmediate(r));
    order.push('request');
    await jobs.settled(project);
    const at = order.indexOf('request');
    expect(at)
      .to.be.greaterThan(0)
      .and.lessThan(order.length - 1);
    expect(jobs.progress(project)).to.deep.include({ total: 20, processed: 20, failed: 0, discarded: 0 });
  });

  it('one job a project at a time: starting again while it runs keeps it', async () => {
    let validated = 0;
    const jobs = new SchemaValidationJobs({
      resources: async () => Array.from({ length: 5 }, (_, i) => resource(i)),
      validate: async () => {
        validated += 1;
        return { conforms: false, targetedNodes: 1, json: { conforms: false } };
      },
      yieldLoop: () => new Promise((r) => setImmediate(r)),
      sliceMillis: 0,
    });
    const project = 'o/p' as ProjectRef;
    // Two starts at once (each reads the project's resources first), then one while it runs.
    await Promise.all([jobs.start(project), jobs.start(project)]);
    await jobs.start(project);
    await jobs.settled(project);
    expect(validated).to.equal(5);
    expect(jobs.errors(project).map((e) => e.reason.value['@type'])).to.deep.equal(Array(5).fill('InvalidResource'));
  });
});
