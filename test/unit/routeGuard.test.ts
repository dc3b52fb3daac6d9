import { expect } from 'chai';
import type { Request, Response, Router } from 'express';
import type { AclCheck } from '../../src/kernel/AclCheck.js';
import { rejections } from '../../src/domain/rejections.js';
import { NOTHING } from '../../src/http/reads.js';
import { CallerConcurrency } from '../../src/http/CallerConcurrency.js';
import { InProcessShares } from '../../src/http/CostlyShares.js';
import type { Context, Endpoint, Guard } from '../../src/http/route.js';
import { onOrg, onProject, onRoot, Routes } from '../../src/http/route.js';
import type { Caller } from '../../src/kernel/Caller.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const alice: Caller = { subject: 'realms/r/users/alice', identities: [{ type: 'User', realm: 'r', subject: 'alice' }] };
const limited = { mode: 'limited', orgs: [], projects: ['o/p'] } as const;

/** An ACL check that grants what `granted` lists (`permission@path`) and records every question. */
const aclOf = (granted: string[], failure?: Error) => {
  const asked: string[] = [];
  const acl: AclCheck = {
    authorize: async (caller, permission, path) => {
      expect(caller).to.equal(alice);
      asked.push(`${permission}@${path}`);
      if (failure) throw failure;
      if (!granted.includes(`${permission}@${path}`)) throw rejections.authorizationFailed();
    },
    access: async (caller, permission, path) => {
      expect(caller).to.equal(alice);
      asked.push(`access ${permission}@${path}`);
      return limited;
    },
  };
  return { acl, asked };
};

/** The handler the route table installs for one endpoint, called as Express would. */
const handlerOf = (acl: AclCheck, endpoint: Endpoint, costly?: CallerConcurrency) => {
  const installed: ((req: Request, res: Response, next: (e?: unknown) => void) => void)[] = [];
  const router = {
    route: () => ({
      get: (...handlers: typeof installed) => installed.push(handlers.at(-1)!),
      all: () => undefined,
    }),
  } as unknown as Router;
  new Routes(acl, { none: [], json: [] } as never, costly).add(router, '/x', { get: endpoint });
  return installed[0]!;
};

interface Outcome {
  ran?: Context;
  error?: unknown;
}

const call = (
  acl: AclCheck,
  guard: Guard,
  request: { query?: Record<string, string>; params?: Record<string, string> } = {},
  extra: { caller?: Caller | null; costly?: CallerConcurrency; flag?: true; handle?: () => unknown } = {},
): Promise<Outcome> =>
  new Promise((resolve) => {
    const endpoint: Endpoint = {
      guard,
      reads: NOTHING,
      body: 'none' as never,
      handle: (_req, _res, ctx) => {
        if (extra.handle) return extra.handle() as void;
        resolve({ ran: ctx });
      },
      ...(extra.flag ? { costly: true as const } : {}),
    };
    const req = {
      query: request.query ?? {},
      params: request.params ?? { org: 'o', project: 'p' },
      socket: { remoteAddress: '127.0.0.1' },
    } as unknown as Request;
    const res = { locals: extra.caller === null ? {} : { caller: extra.caller ?? alice } } as unknown as Response;
    handlerOf(acl, endpoint, extra.costly)(req, res, (error) => resolve({ error }));
  });

const refused = (outcome: Outcome) => {
  expect(outcome.ran).to.equal(undefined);
  expect(outcome.error).to.be.instanceOf(Rejection);
  expect((outcome.error as Rejection).type).to.equal('AuthorizationFailed');
};

describe('route guard: the one place a route is authorized', () => {
  it('checks the declared permission on the path of the request, and runs the handler with every project readable', async () => {
    const { acl, asked } = aclOf(['resources/read@/o/p']);
    const outcome = await call(acl, { permission: 'resources/read', on: onProject });
    expect(outcome.ran).to.deep.equal({ caller: alice, access: { mode: 'all' }, indexing: 'sync' });
    expect(asked).to.deep.equal(['resources/read@/o/p']);
  });

  it('does not run the handler when the caller lacks the permission', async () => {
    const { acl, asked } = aclOf(['resources/read@/o']);
    refused(await call(acl, { permission: 'resources/write', on: onOrg }));
    expect(asked).to.deep.equal(['resources/write@/o']);
  });

  it('checks only when `when` says the request needs it', async () => {
    const { acl, asked } = aclOf([]);
    const skipped = await call(acl, { permission: 'resources/write', on: onRoot, when: (req) => req.query['tag'] !== undefined });
    expect(skipped.ran).to.deep.equal({ caller: alice, access: { mode: 'all' }, indexing: 'sync' });
    expect(asked).to.deep.equal([]);
    refused(await call(acl, { permission: 'resources/write', on: onRoot, when: (req) => req.query['tag'] !== undefined }, { query: { tag: 't' } }));
    expect(asked).to.deep.equal(['resources/write@/']);
  });

  it('asks the create permission without `rev` and the update permission with it', async () => {
    const { acl, asked } = aclOf(['projects/create@/o/p']);
    const upsert = { permission: { create: 'projects/create', update: 'projects/write' }, on: onProject } as const;
    expect((await call(acl, upsert)).ran).to.not.equal(undefined);
    refused(await call(acl, upsert, { query: { rev: '1' } }));
    expect(asked).to.deep.equal(['projects/create@/o/p', 'projects/write@/o/p']);
  });

  it("asks the item's own permission where `resolve` names one, else the declared one", async () => {
    const { acl, asked } = aclOf(['custom/read@/o/p']);
    const guard = (own: string | undefined): Guard => ({ permission: 'resources/read', on: onProject, resolve: () => own });
    expect((await call(acl, guard('custom/read'))).ran).to.not.equal(undefined);
    refused(await call(acl, guard(undefined)));
    expect(asked).to.deep.equal(['custom/read@/o/p', 'resources/read@/o/p']);
  });

  it('with `or`, takes either permission, asking the second only when the first is refused', async () => {
    const guard: Guard = { permission: 'resources/read', on: onProject, or: 'views/query' };
    const first = aclOf(['resources/read@/o/p']);
    expect((await call(first.acl, guard)).ran).to.not.equal(undefined);
    expect(first.asked).to.deep.equal(['resources/read@/o/p']);
    const second = aclOf(['views/query@/o/p']);
    expect((await call(second.acl, guard)).ran).to.not.equal(undefined);
    expect(second.asked).to.deep.equal(['resources/read@/o/p', 'views/query@/o/p']);
    const neither = aclOf([]);
    refused(await call(neither.acl, guard));
    expect(neither.asked).to.deep.equal(['resources/read@/o/p', 'views/query@/o/p']);
  });

  it('with `or`, does not try the second permission when the first check failed for another reason', async () => {
    const broken = new Error('the ACL index is down');
    const { acl, asked } = aclOf(['views/query@/o/p'], broken);
    const outcome = await call(acl, { permission: 'resources/read', on: onProject, or: 'views/query' });
    expect(outcome.error).to.equal(broken);
    expect(asked).to.deep.equal(['resources/read@/o/p']);
    const other = aclOf([], rejections.notAcceptable(['text/plain']));
    expect(((await call(other.acl, { permission: 'resources/read', on: onProject, or: 'views/query' })).error as Rejection).type).to.equal(
      'UnacceptedResponseContentTypeRejection',
    );
    expect(other.asked).to.deep.equal(['resources/read@/o/p']);
  });

  it('hands a `within` read the projects where the caller holds the permission, without refusing', async () => {
    const { acl, asked } = aclOf([]);
    const outcome = await call(acl, { permission: 'resources/read', within: onOrg });
    expect(outcome.ran).to.deep.equal({ caller: alice, access: limited, indexing: 'sync' });
    expect(asked).to.deep.equal(['access resources/read@/o']);
  });

  it('asks nothing of a public route', async () => {
    const { acl, asked } = aclOf([]);
    expect((await call(acl, { public: true })).ran).to.deep.equal({ caller: alice, access: { mode: 'all' }, indexing: 'sync' });
    expect(asked).to.deep.equal([]);
  });

  it('fails a route whose ACL path needs a parameter the route lacks, and a request that skipped authentication', async () => {
    const { acl } = aclOf(['resources/read@/o/p']);
    const noProject = await call(acl, { permission: 'resources/read', on: onProject }, { params: { org: 'o' } });
    expect((noProject.error as Error).message).to.equal("route without a ':project' parameter used an ACL path that needs it");
    const noOrg = await call(acl, { permission: 'resources/read', on: onOrg }, { params: {} });
    expect((noOrg.error as Error).message).to.include(":org'");
    const anonymous = await call(acl, { public: true }, {}, { caller: null });
    expect((anonymous.error as Error).message).to.include('the caller is resolved before the router');
  });

  it("counts a costly route against the caller's share, and only a costly one", async () => {
    const { acl } = aclOf([]);
    const none = new CallerConcurrency(new InProcessShares(0));
    const counted = await call(acl, { public: true }, {}, { costly: none, flag: true });
    expect((counted.error as Rejection).type).to.equal('TooManyRequests');
    expect((await call(acl, { public: true }, {}, { costly: none })).ran).to.not.equal(undefined);
    expect((await call(acl, { public: true }, {}, { flag: true })).ran).to.not.equal(undefined);
  });

  it("passes a handler's failure, thrown or rejected, to the error middleware", async () => {
    const { acl } = aclOf([]);
    const thrown = new Error('thrown');
    expect(
      (
        await call(
          acl,
          { public: true },
          {},
          {
            handle: () => {
              throw thrown;
            },
          },
        )
      ).error,
    ).to.equal(thrown);
    const rejected = new Error('rejected');
    expect((await call(acl, { public: true }, {}, { handle: () => Promise.reject(rejected) })).error).to.equal(rejected);
  });
});
