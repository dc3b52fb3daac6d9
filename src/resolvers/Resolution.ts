import type { AclCheck } from '../kernel/AclCheck.js';
import type { Caller } from '../kernel/Caller.js';
import type { ItemRef } from '../kernel/ItemRef.js';
import type { ProjectRef } from '../kernel/labels.js';
import { Rejection } from '../kernel/Rejection.js';
import type { Selector } from '../domain/resources/resourcePorts.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import { context } from '../kernel/vocabulary.js';
import type { ResolverState } from './Resolver.js';
import type { ResolverService } from './ResolverService.js';

/** An item found by resolution: its kind, where it lives, its current state. */
export interface Resolved {
  kind: 'resources' | 'schemas';
  project: ProjectRef;
  state: ResourceState;
}

/** Finds an item by `@id` in one project: of the kind named, else schemas first (as Delta's resource resolution tries them). */
export type ItemLookup = (project: ProjectRef, id: string, kind?: Resolved['kind']) => Promise<Resolved | undefined>;

/** What a resolution looks for: any item (the `_` route) or one kind, deprecated ones excluded or not. */
export interface ResolutionScope {
  kind?: Resolved['kind'];
  excludeDeprecated?: boolean;
}

interface Cause {
  '@type': string;
  reason: string;
  [field: string]: unknown;
}

/** One resolver's attempt, as Delta's `ResolverReport` renders it. */
export interface ResolverReport {
  resolverId: string;
  success: boolean;
  resourceProject?: ProjectRef;
  rejections: { project: ProjectRef; cause: Cause }[];
}

export interface ResolutionOutcome {
  found?: Resolved;
  history: ResolverReport[];
}

const isCause = (value: Resolved | Cause): value is Cause => '@type' in value;

const cause = (type: string, reason: string, fields: Record<string, unknown> = {}): Cause => ({ '@type': type, reason, ...fields });

/** How Delta names a reference in its resolution reasons. */
export const describeRef = (id: string, selector: Selector): string =>
  selector.rev !== undefined ? `'${id}' (revision: ${selector.rev})` : selector.tag !== undefined ? `'${id}' (tag: ${selector.tag})` : `'${id}' (latest)`;

/**
 * Resolution through a project's resolvers (Delta's `ResolverResolution`): resolvers in priority
 * order, the first that finds the item wins. An in-project resolver looks in its own project; a
 * cross-project one in each of its projects in order, where its identities (or the caller's, with
 * `useCurrentCaller`) must hold `resources/read`, the item must carry one of its `resourceTypes`
 * when it names some, and the item must not be deprecated.
 */
export class Resolution {
  constructor(
    private readonly resolvers: ResolverService,
    private readonly lookup: ItemLookup,
    private readonly acl: AclCheck,
    /** How long a resolution runs before it hands the event loop over (between two projects). */
    private readonly sliceMillis = 5,
  ) {}

  /** Through every active resolver of the project. */
  async resolve(project: ProjectRef, id: string, selector: Selector, caller: Caller | undefined, scope: ResolutionScope = {}): Promise<ResolutionOutcome> {
    const history: ResolverReport[] = [];
    const slice = this.slice();
    for (const resolver of this.resolvers.active(project)) {
      const { report, found } = await this.through(resolver, project, id, selector, caller, scope, slice);
      history.push(report);
      if (found) return { found, history };
    }
    return { history };
  }

  /** Through one resolver of the project (a deprecated one fails its report). */
  async resolveWith(resolverRef: ItemRef, id: string, selector: Selector, caller: Caller): Promise<ResolutionOutcome> {
    const resolver = this.resolvers.fetch(resolverRef);
    const project = resolverRef.project;
    if (resolver.deprecated) {
      const reason = `Resolver '${resolver.id}' is deprecated.`;
      return { history: [{ resolverId: resolver.id, success: false, rejections: [{ project, cause: cause('ResolverIsDeprecated', reason) }] }] };
    }
    const { report, found } = await this.through(resolver, project, id, selector, caller, {}, this.slice());
    return { history: [report], ...(found ? { found } : {}) };
  }

  /**
   * Hands the event loop over once this resolution ran its slice (projects of many resolvers, each
   * an ACL check and a lookup, run synchronously otherwise): other requests are served between two projects.
   */
  private slice(): () => Promise<void> {
    let started = performance.now();
    return async () => {
      if (performance.now() - started < this.sliceMillis) return;
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    };
  }

  private async through(
    resolver: ResolverState,
    project: ProjectRef,
    id: string,
    selector: Selector,
    caller: Caller | undefined,
    scope: ResolutionScope,
    slice: () => Promise<void>,
  ) {
    const f = resolver.value.fields;
    const rejections: ResolverReport['rejections'] = [];
    const targets = f.type === 'InProject' ? [project] : (f.projects ?? []);
    for (const target of targets) {
      await slice();
      const refused = await this.attempt(resolver, target, id, selector, caller, scope);
      if (!isCause(refused)) return { report: { resolverId: resolver.id, success: true, resourceProject: target, rejections }, found: refused };
      rejections.push({ project: target, cause: refused });
    }
    const failed: ResolverReport = { resolverId: resolver.id, success: false, rejections };
    return { report: failed, found: undefined };
  }

  private async attempt(
    resolver: ResolverState,
    target: ProjectRef,
    id: string,
    selector: Selector,
    caller: Caller | undefined,
    scope: ResolutionScope,
  ): Promise<Resolved | Cause> {
    const f = resolver.value.fields;
    if (f.type === 'CrossProject') {
      const resolution = f.identityResolution;
      const identities = resolution && 'identities' in resolution ? resolution.identities : (caller?.identities ?? []);
      const allowed = await this.acl.authorize({ subject: caller?.subject ?? 'anonymous', identities }, 'resources/read', `/${target}`).then(
        () => true,
        (error: unknown) => {
          if (error instanceof Rejection) return false;
          throw error;
        },
      );
      const how = resolution && 'identities' in resolution ? 'ProvidedIdentities' : 'UseCurrentCaller';
      if (!allowed)
        return cause('ProjectAccessDenied', `The supplied authentication is not authorized to access the project '${target}' using resolution ${how}`);
    }
    const found = await this.lookup(target, id, scope.kind);
    if (!found) return cause('ResourceNotFound', `The resource was not found in project '${target}'.`);
    if (selector.rev !== undefined && (selector.rev < 1 || selector.rev > found.state.rev))
      return cause('RevisionNotFound', `Revision requested '${selector.rev}' not found.`, { provided: selector.rev });
    if (selector.tag !== undefined && found.state.tags[selector.tag] === undefined) return cause('TagNotFound', `Tag requested '${selector.tag}' not found.`);
    if (f.type === 'CrossProject' && f.resourceTypes?.length && !f.resourceTypes.some((t) => found.state.types.includes(t)))
      return cause('ResourceTypesDenied', `None of the provided types '${found.state.types.join(',')}' matched the resolver authorized types`);
    if (found.state.deprecated && scope.excludeDeprecated !== false) return cause('ResourceIsDeprecated', `The resource is deprecated in project '${target}'.`);
    return found;
  }
}

/** `showReport` over every resolver: Delta's `ResourceResolutionReport`. */
export const resolutionReport = (history: ResolverReport[]) => ({ '@context': context('resolvers'), history });
/** `showReport` through one resolver: its `ResolverReport`. */
export const resolverReport = (report: ResolverReport) => ({ '@context': context('resolvers'), ...report });
