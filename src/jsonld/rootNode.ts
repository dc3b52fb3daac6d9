import { jsonldRejections as rejections } from './jsonldRejections.js';
import type { JsonObject } from '../kernel/json.js';

const rootNode = (expanded: JsonObject[], pathId: string | undefined): JsonObject => {
  if (expanded.length === 0) return {};
  if (expanded.length === 1) return expanded[0]!;
  const named = pathId === undefined ? undefined : expanded.find((n) => n['@id'] === pathId);
  if (named) return named;
  throw rejections.invalidJsonLd('the payload must describe a single root node, or name its root with @id');
};

/**
 * Settles an expanded payload's root node and gives it its id: the one the path names, else the
 * payload's own, else a new one. Refuses a payload whose id contradicts the path's. Idempotent, so
 * that a worker may settle it before the main thread does (the result is the same).
 */
export const placeRoot = (expanded: JsonObject[], pathId: string | undefined, generateId?: () => string): { root: JsonObject; id: string } => {
  const root = rootNode(expanded, pathId);
  const payloadId = typeof root['@id'] === 'string' && !root['@id'].startsWith('_:') ? root['@id'] : undefined;
  if (pathId !== undefined && payloadId !== undefined && payloadId !== pathId) throw rejections.unexpectedId(pathId, payloadId);
  const id = pathId ?? payloadId ?? generateId?.();
  if (id === undefined) throw new Error('an expanded payload without an id needs an id generator');
  root['@id'] = id;
  if (!expanded.includes(root)) expanded.unshift(root);
  return { root, id };
};
