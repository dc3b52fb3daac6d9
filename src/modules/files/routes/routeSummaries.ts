import type { Router } from 'express';
import type { Endpoint, Method, Routes } from '../../../http/route.js';

/** What each route of storages (spec 4.4) and files does, for the OpenAPI description: a capability's routes say it themselves. */
const SUMMARIES: Readonly<Record<string, string>> = {
  'GET /v1/storages': 'List storages of every readable project',
  'GET /v1/storages/:org': 'List storages of an organization',
  'GET /v1/storages/:org/:project': 'List storages of a project',
  'POST /v1/storages/:org/:project': 'Create a storage (DiskStorage, RemoteDiskStorage, BlobStorage)',
  'GET /v1/storages/:org/:project/:id': 'Fetch a storage (?rev or ?tag), defaults filled in, never its secrets',
  'PUT /v1/storages/:org/:project/:id': 'Create a storage with this id, or update it (?rev)',
  'DELETE /v1/storages/:org/:project/:id': 'Deprecate a storage (?rev)',
  'GET /v1/storages/:org/:project/:id/source': 'The storage payload as sent, without secrets',
  'GET /v1/storages/:org/:project/:id/tags': 'Tags of a storage',
  'POST /v1/storages/:org/:project/:id/tags': 'Tag a revision of a storage (?rev)',
  'GET /v1/storages/:org/:project/:id/incoming': 'Resources linking to a storage',
  'GET /v1/storages/:org/:project/:id/outgoing': 'What a storage links to',
  'GET /v1/storages/:org/:project/:id/statistics': 'Files and space used on a storage',
  'GET /v1/files': 'List files of every readable project',
  'GET /v1/files/:org': 'List files of an organization',
  'GET /v1/files/:org/:project': 'List files of a project',
  'POST /v1/files/:org/:project': 'Upload a file (multipart/form-data, part "file"; ?storage)',
  'GET /v1/files/:org/:project/:id': "Download a file's bytes (Range answered with 206), or its metadata with a JSON-LD Accept (?rev or ?tag)",
  'PUT /v1/files/:org/:project/:id': 'Upload a file with this id, or a new revision of it (?rev; multipart/form-data)',
  'DELETE /v1/files/:org/:project/:id': 'Deprecate a file (?rev)',
  'GET /v1/files/:org/:project/:id/tags': 'Tags of a file',
  'POST /v1/files/:org/:project/:id/tags': 'Tag a revision of a file (?rev)',
  'DELETE /v1/files/:org/:project/:id/tags/:tag': 'Remove a tag of a file (?rev)',
  'PUT /v1/files/:org/:project/:id/undeprecate': 'Undeprecate a file (?rev)',
  'GET /v1/files/:org/:project/:id/incoming': 'Resources linking to a file',
  'GET /v1/files/:org/:project/:id/outgoing': 'What a file links to (its storage)',
};

/** The route table, each endpoint added with its summary from the table above. */
export const summarised = (routes: Routes): Pick<Routes, 'add'> => ({
  add: (router: Router, path: string, endpoints: Partial<Record<Method, Endpoint>>) => {
    const withSummaries: Partial<Record<Method, Endpoint>> = {};
    for (const [method, endpoint] of Object.entries(endpoints) as [Method, Endpoint][]) {
      const summary = SUMMARIES[`${method.toUpperCase()} ${path}`] ?? endpoint.summary;
      withSummaries[method] = summary === undefined ? endpoint : { ...endpoint, summary };
    }
    routes.add(router, path, withSummaries);
  },
});
