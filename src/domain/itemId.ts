import type { JsonObject } from './resources/ResourceEvent.js';
import type { ProjectState } from './projects/Project.js';
import { resolveId } from './projects/apiMappings.js';
import { rejections } from './rejections.js';
import type { Rejection } from '../kernel/Rejection.js';

/**
 * The id of an item being created from its path's id (resolved at the edge) and its payload's `@id`,
 * expanded by the project's mappings and base: they must agree when both are given, and neither given means a
 * new id under the project's base. Each kind names its own rejection of an id that cannot be one.
 */
export const itemId = (
  project: ProjectState,
  pathId: string | undefined,
  source: JsonObject,
  invalid: (value: string) => Rejection,
  uuid: () => string,
  /** The kind's rejection of an `@id` that is not a string. */
  notString: (message: string) => Rejection = rejections.malformedContent,
): string => {
  const resolve = (value: string) => {
    const iri = resolveId(value, project);
    if (iri === undefined) throw invalid(value);
    return iri;
  };
  const raw = source['@id'];
  if (raw !== undefined && typeof raw !== 'string') throw notString("'@id' must be a string.");
  const payloadId = raw === undefined ? undefined : resolve(raw);
  if (pathId !== undefined && payloadId !== undefined && pathId !== payloadId) throw rejections.unexpectedId(pathId, payloadId);
  return pathId ?? payloadId ?? `${project.base}${uuid()}`;
};
