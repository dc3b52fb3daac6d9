import type { DeclaredRoute } from '../route.js';
import { ROUTE_SUMMARIES } from './routeSummaries.js';

const ERROR = { $ref: '#/components/schemas/Error' };

/** `/v1/resources/:org/:project` in OpenAPI's spelling, `/v1/resources/{org}/{project}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

const guardText = (route: DeclaredRoute): string => {
  const guard = route.guard;
  if ('public' in guard) return 'No permission needed.';
  if ('within' in guard) return `Lists only what the caller holds \`${guard.permission}\` on.`;
  const permission =
    typeof guard.permission === 'string'
      ? `\`${guard.permission}\`${guard.or ? ` or \`${guard.or}\`` : ''}`
      : `\`${guard.permission.create}\` to create, \`${guard.permission.update}\` to update`;
  const own = guard.resolve ? ' (or the permission its storage names)' : '';
  return `Needs ${permission}${own} on the path${guard.when ? ' (when the parameters ask for it)' : ''} or an ancestor.`;
};

/**
 * The OpenAPI 3.1 description of the routes the service serves, built from the route table (paths,
 * methods, permissions, body kinds) and the route summaries. The error body is the one of every
 * failure; the full contract of each payload is in the API description the README points to.
 */
export const openApiDocument = (routes: readonly DeclaredRoute[], version: string, base: string) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const parameters = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    (paths[path] ??= {})[route.method] = {
      summary: route.summary ?? ROUTE_SUMMARIES[`${route.method.toUpperCase()} ${route.path}`] ?? '',
      description: guardText(route),
      ...(parameters.length ? { parameters } : {}),
      ...(route.body === 'json'
        ? {
            requestBody: {
              required: false,
              content: { 'application/json': { schema: { type: 'object' } }, 'application/ld+json': { schema: { type: 'object' } } },
            },
          }
        : route.body === 'multipart'
          ? {
              requestBody: {
                required: true,
                content: {
                  'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } },
                },
              },
            }
          : {}),
      ...('public' in route.guard ? {} : { security: [{}, { bearer: [] }] }),
      responses: {
        '2XX': { description: 'Success' },
        '4XX': { description: 'A typed rejection', content: { 'application/ld+json': { schema: ERROR } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Semantic registry', version, description: 'A versioned registry of JSON-LD resources validated against SHACL schemas.' },
    servers: [{ url: base }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['@context', '@type', 'reason'],
          properties: { '@context': { type: 'string' }, '@type': { type: 'string' }, reason: { type: 'string' }, details: {} },
        },
      },
    },
  };
};
