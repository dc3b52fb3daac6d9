import type { Addresses } from '../../kernel/Addresses.js';
import { rejections } from '../../domain/rejections.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { FileStates } from './files/FileService.js';
import type { FilePort, StoragePort } from '../filePorts.js';
import type { FileState } from './files/File.js';
import { FILE_TYPE } from './files/fileDefinition.js';
import { fileKey } from './files/fileKey.js';
import type { FileService } from './files/FileService.js';
import { fileMetadata } from './render/files.js';
import type { StorageService } from './storages/StorageService.js';

/** The files as other modules are handed them (`FilePort`): the service, the states and the renderer behind it. */
export const filePort = (files: FileService, states: FileStates, addresses: Addresses): FilePort => ({
  find: (project, idSegment) => files.find(project, idSegment),
  fetch: (project, idSegment, selector) => {
    const item = files.named(project, idSegment);
    if (item === undefined) throw rejections.invalidResourceId(idSegment);
    return files.fetch(item, selector);
  },
  // The port's files are this module's: a `FileItem` it hands out is a `FileState`.
  content(file: FileState) {
    return files.content(file);
  },
  ofProject: async function* (project: ProjectRef) {
    for await (const page of files.ofProject(project)) yield* page;
  },
  get: (project, id) => states.get(fileKey(project, id)),
  metadata(file: FileState) {
    return fileMetadata(file, addresses);
  },
  type: FILE_TYPE,
});

/** The storages as other modules are handed them (`StoragePort`). */
export const storagePort = (storages: StorageService): StoragePort => ({
  readPermission: (project, storageId) => storages.fetch({ project, id: storageId }).value.fields.readPermission,
});
