import type { CommandDefinition, KindDefinition } from '../../src/domain/KindDefinition.js';
import { sendJsonLd } from '../../src/http/routes/itemResponses.js';
import { STATES, FETCH, LISTING } from '../../src/http/reads.js';
import { itemOf, onProject, projectOf } from '../../src/http/route.js';
import type { ProjectRef } from '../../src/kernel/labels.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import type { SubjectPath } from '../../src/kernel/Subject.js';
import type { CapabilityModule } from '../../src/modules/Capability.js';
import type { Platform } from '../../src/modules/Platform.js';

declare module '../../src/events/EventLog.js' {
  interface KindNames {
    toys: true;
  }
}

/** A test-only capability: one kind with a route, a stream, a rejection status, a listing, a search document and a multi-fetch entry. */
interface ToyState {
  project: ProjectRef;
  id: string;
  rev: number;
  name: string;
  deprecated: boolean;
  createdAt: string;
  createdBy: SubjectPath;
  updatedAt: string;
  updatedBy: SubjectPath;
}
interface ToyCreated {
  type: 'ToyCreated';
  instant: string;
  rev: number;
  project: ProjectRef;
  id: string;
  name: string;
  subject: SubjectPath;
}
type CreateToy = Omit<ToyCreated, 'type' | 'rev'>;

const toyKey = (project: ProjectRef, id: string) => `toys/${project}/${id}`;
const toyExists = (id: string) => new Rejection('ToyAlreadyExists', `Toy '${id}' already exists.`);
export const TOY_TYPE = 'http://example.org/Toy';

const toyDefinition: KindDefinition<ToyState> & CommandDefinition<ToyState, CreateToy, ToyCreated> = {
  kind: 'toys',
  stateKey: (logged) => logged.key,
  keyOf: (s) => toyKey(s.project, s.id),
  next: (_state, logged) => {
    const e = logged.event as unknown as ToyCreated;
    return {
      project: e.project,
      id: e.id,
      rev: 1,
      name: e.name,
      deprecated: false,
      createdAt: e.instant,
      createdBy: e.subject,
      updatedAt: e.instant,
      updatedBy: e.subject,
    };
  },
  render: (logged) => ({ '@type': logged.event.type, _toyId: (logged.event as unknown as ToyCreated).id, _project: logged.project }),
  listed: (s) => ({ ...s, types: [TOY_TYPE], schema: 'https://bluebrainnexus.io/schemas/unconstrained.json', links: [] }),
  evaluate: (state, cmd) => (state ? toyExists(cmd.id) : { type: 'ToyCreated', rev: 1, ...cmd }),
  conflict: (_state, cmd) => toyExists(cmd.id),
};

const body = (s: ToyState) => ({ '@id': s.id, '@type': TOY_TYPE, name: s.name, _project: s.project, _rev: s.rev });

export const toyCapability: CapabilityModule<Platform, unknown> = {
  name: 'toys',
  kinds: [toyDefinition as KindDefinition],
  streams: ['toys'],
  projections: [],
  statuses: { ToyAlreadyExists: 409 },
  documents: () => ({ toys: { document: (s: ToyState) => ({ '@id': s.id, '@type': TOY_TYPE, name: s.name }) } }),
  wire: (p) => {
    const states = p.states.of(toyDefinition);
    const guard = (permission: 'resources/read' | 'resources/write') => ({ permission, on: onProject });
    return {
      services: {},
      viewed: [
        {
          kind: 'toys',
          fetch: ({ project, id }) => {
            const s = states.get(toyKey(project, id));
            if (!s) throw new Rejection('ResourceNotFound', `Toy '${id}' not found.`);
            return {
              id,
              source: { name: s.name },
              body: body(s),
              annotated: body(s),
              expanded: [{ '@id': id, 'http://example.org/name': [{ '@value': s.name }] }],
            };
          },
        },
      ],
      routes: (routes, router) => {
        routes.add(router, '/v1/toys/:org/:project', {
          get: {
            guard: guard('resources/read'),
            reads: LISTING,
            body: 'none',
            summary: 'List toys',
            handle: async (req, res, ctx) => {
              const q = typeof req.query['q'] === 'string' ? { q: req.query['q'] } : {};
              const found = await p.listings.list({
                kind: 'toys',
                project: projectOf(req),
                access: ctx.access,
                from: 0,
                size: 20,
                sort: [],
                types: [],
                typeOperator: 'or',
                ...q,
              });
              sendJsonLd(res, { _total: found.total, _results: found.items.map((i) => i.id) });
            },
          },
        });
        routes.add(router, '/v1/toys/:org/:project/:id', {
          put: {
            guard: guard('resources/write'),
            reads: STATES,
            body: 'json',
            summary: 'Create a toy',
            item: { id: 'id' },
            handle: async (req, res, ctx) => {
              const { project, id } = itemOf(ctx);
              const cmd = { project, id, name: String((req.body as { name?: unknown }).name), subject: ctx.caller.subject, instant: p.clock.now() };
              await p.lifecycle.run(toyDefinition, states.get(toyKey(project, id)), cmd, { key: toyKey(project, id), org: project.split('/')[0]!, project });
              sendJsonLd(res, body(states.get(toyKey(project, id))!), 201);
            },
          },
          get: {
            guard: guard('resources/read'),
            reads: FETCH,
            body: 'none',
            summary: 'Fetch a toy',
            item: { id: 'id' },
            handle: async (_req, res, ctx) => {
              const { project, id } = itemOf(ctx);
              const s = states.get(toyKey(project, id));
              if (!s) throw new Rejection('ResourceNotFound', 'no such toy');
              sendJsonLd(res, body(s));
            },
          },
        });
      },
    };
  },
};
