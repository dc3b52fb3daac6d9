import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OrgState } from '../domain/orgs/Org.js';
import type { ProjectState } from '../domain/projects/Project.js';
import type { ResourceState } from '../domain/resources/Resource.js';

/** Everything a restart needs besides the log: the folded states and how far the revision file goes. */
export interface Snapshot {
  version: 1;
  seq: number;
  revisionBytes: number;
  orgs: OrgState[];
  projects: ProjectState[];
  resources: ResourceState[];
  /** Absent from snapshots taken before schemas existed. */
  schemas?: ResourceState[];
}

/** One snapshot file, replaced atomically (write to a temporary file, fsync, rename). */
export class Snapshots {
  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  load(): Snapshot | undefined {
    if (!existsSync(this.path)) return undefined;
    const snapshot = JSON.parse(readFileSync(this.path, 'utf8')) as Snapshot;
    if (snapshot.version !== 1) throw new Error(`unknown snapshot version in ${this.path}`);
    return snapshot;
  }

  save(snapshot: Snapshot): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      // Written in pieces: one JSON string of every state could exceed V8's string limit.
      const write = (text: string) => {
        const bytes = Buffer.from(text);
        let done = 0;
        while (done < bytes.length) done += writeSync(fd, bytes, done);
      };
      write(`{"version":1,"seq":${snapshot.seq},"revisionBytes":${snapshot.revisionBytes}`);
      for (const field of ['orgs', 'projects', 'resources', 'schemas'] as const) {
        write(`,${JSON.stringify(field)}:[`);
        const items = snapshot[field] ?? [];
        for (let i = 0; i < items.length; i += 1000) write((i ? ',' : '') + items.slice(i, i + 1000).map((x) => JSON.stringify(x)).join(','));
        write(']');
      }
      write('}');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
  }
}
