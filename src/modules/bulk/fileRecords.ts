import type { FileItem, FilePort } from '../filePorts.js';
import { atRevision } from '../../domain/versioned.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';

/**
 * A project's files in an export: one line per file and revision, its metadata as a fetch of that
 * revision shows it, and `_download`, the address its bytes are read from. The bytes themselves
 * are not in the export: an import cannot replay them, a client downloads and uploads them.
 * `readable` says whether the caller may fetch a file (its storage's read permission): the others
 * are left out, as their fetch would refuse them.
 */
export async function* fileRecords(project: ProjectRef, files: FilePort, readable: (file: FileItem) => Promise<boolean>): AsyncGenerator<string> {
  for await (const file of files.ofProject(project)) {
    if (!(await readable(file))) continue;
    for (const revision of file.history) {
      const state = atRevision(file, revision.rev)!;
      const { '@context': _context, ...metadata } = files.metadata(state);
      const line: JsonObject = {
        _kind: 'files',
        ...metadata,
        _event: revision.event ?? (revision.rev === 1 ? 'FileCreated' : 'FileUpdated'),
        _tags: file.tags,
        _download: `${metadata['_self'] as string}?rev=${revision.rev}`,
      };
      yield `${JSON.stringify(line)}\n`;
    }
  }
}
