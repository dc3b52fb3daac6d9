import { expect } from 'chai';
import type { Caller } from '../../src/kernel/Caller.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import type { ProjectState } from '../../src/domain/projects/Project.js';
import type { Chooser, SparqlRequest, SparqlViews, ViewDataset } from '../../src/sparqlEndpoint/SparqlEndpoint.js';
import { DEFAULT_SPARQL_VIEW, SparqlEndpoint } from '../../src/sparqlEndpoint/SparqlEndpoint.js';
import type { ProjectQuery, ProjectSparqlStore, QueryAnswer, QueryFailure } from '../../src/store/ProjectSparqlStore.js';
import { answerTypes, QueryFailed } from '../../src/store/ProjectSparqlStore.js';

const alice: Caller = { subject: 'realms/r/users/alice', identities: [{ type: 'User', realm: 'r', subject: 'alice' }] };
const SELECT = 'SELECT ?s WHERE { ?s ?p ?o }';
const CONSTRUCT = 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }';
const ASK = 'ASK { ?s ?p ?o }';
const RESULTS = 'application/sparql-results+json';

const project = {
  org: 'o',
  label: 'p',
  base: 'https://base.example/',
  vocab: 'https://vocab.example/',
  apiMappings: [
    { prefix: 'sparql', namespace: DEFAULT_SPARQL_VIEW },
    { prefix: 'ok', namespace: 'urn:ok:' },
    { prefix: 'a.b-c_d9', namespace: 'urn:dots:' },
    { prefix: '9lives', namespace: 'urn:digit:' },
    { prefix: 'two words', namespace: 'urn:space:' },
    { prefix: 'tail!', namespace: 'urn:bang:' },
    { prefix: '', namespace: 'urn:empty:' },
  ],
} as unknown as ProjectState;

/** A store that records each query and answers with what `answer` gives for it. */
const storeOf = (answer: (q: ProjectQuery) => QueryAnswer | Error = (q) => ({ mediaType: q.mediaType, body: q.project })) => {
  const asked: ProjectQuery[] = [];
  const store = {
    query: async (q: ProjectQuery) => {
      asked.push(q);
      const a = answer(q);
      if (a instanceof Error) throw a;
      return a;
    },
  } as unknown as ProjectSparqlStore;
  return { store, asked };
};

/** A chooser that records what it was offered and picks `pick` (undefined: nothing acceptable). */
const chooser = (pick: string | undefined) => {
  const offers: string[][] = [];
  const choose: Chooser = (offered) => {
    offers.push(offered);
    return pick;
  };
  return { choose, offers };
};

const fetched: string[] = [];
const projects = {
  fetch: (ref: string) => {
    fetched.push(ref);
    return project;
  },
};

const request = (query: string | undefined, more: Partial<SparqlRequest> = {}): SparqlRequest => ({
  ...(query === undefined ? {} : { query }),
  defaultGraphs: [],
  namedGraphs: [],
  ...more,
});

const rejection = async (promise: Promise<unknown>): Promise<Rejection> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(Rejection);
  return error as Rejection;
};

describe('SparqlEndpoint: the default view', () => {
  it('answers on the default view by its alias, its IRI or a CURIE of it, asking the store about the project', async () => {
    const { store, asked } = storeOf();
    const endpoint = new SparqlEndpoint(projects, store);
    for (const view of ['graph', DEFAULT_SPARQL_VIEW, 'nxv:defaultSparqlIndex', 'sparql']) {
      fetched.length = 0;
      expect(await endpoint.query('o/p', view, request(SELECT), chooser(RESULTS).choose)).to.deep.equal({ mediaType: RESULTS, body: 'o/p' });
      expect(fetched).to.deep.equal(['o/p']);
    }
    expect(asked[0]).to.deep.equal({ project: 'o/p', query: SELECT, form: 'select', mediaType: RESULTS });
  });

  it('refuses another view as not found, naming it and the project, before anything else', async () => {
    const { store, asked } = storeOf();
    const endpoint = new SparqlEndpoint(projects, store);
    const refused = await rejection(endpoint.query('o/p', 'nxv:other', request(undefined, { update: true }), chooser(RESULTS).choose));
    expect(refused.type).to.equal('ViewNotFound');
    expect(refused.reason).to.equal("View 'nxv:other' not found in project 'o/p'.");
    expect((await rejection(endpoint.query('o/p', 'graph2', request(SELECT), chooser(RESULTS).choose))).type).to.equal('ViewNotFound');
    expect(asked).to.deep.equal([]);
  });

  it('refuses an update, even with a query, and a missing or blank query', async () => {
    const { store, asked } = storeOf();
    const endpoint = new SparqlEndpoint(projects, store);
    const update = await rejection(endpoint.query('o/p', 'graph', request(SELECT, { update: true }), chooser(RESULTS).choose));
    expect(update.type).to.equal('UnsupportedOperation');
    expect(update.fields).to.deep.equal({ operation: 'SPARQL Update' });
    for (const query of [undefined, '', ' \n\t'])
      expect((await rejection(endpoint.query('o/p', 'graph', request(query), chooser(RESULTS).choose))).type, JSON.stringify(query)).to.equal('MissingQuery');
    expect(asked).to.deep.equal([]);
  });

  it("offers the form's media types and plain JSON, and refuses with the form's types when none is acceptable", async () => {
    const { store, asked } = storeOf();
    const endpoint = new SparqlEndpoint(projects, store);
    for (const [query, form] of [
      [SELECT, 'select'],
      [ASK, 'ask'],
      [CONSTRUCT, 'construct'],
      ['DESCRIBE <urn:x>', 'describe'],
    ] as const) {
      const none = chooser(undefined);
      const refused = await rejection(endpoint.query('o/p', 'graph', request(query), none.choose));
      expect(refused.type).to.equal('UnacceptedResponseContentTypeRejection');
      expect(refused.fields).to.deep.equal({ supported: [...answerTypes[form]] });
      expect(none.offers).to.deep.equal([[...answerTypes[form], 'application/json']]);
    }
    expect(answerTypes.select).to.deep.equal([RESULTS, 'application/sparql-results+xml', 'text/csv', 'text/tab-separated-values']);
    expect(answerTypes.ask).to.deep.equal(answerTypes.select);
    expect(answerTypes.construct).to.deep.equal(['application/n-triples', 'text/turtle', 'application/n-quads', 'application/ld+json', 'application/rdf+xml']);
    expect(answerTypes.describe).to.deep.equal(answerTypes.construct);
    expect(asked).to.deep.equal([]);
  });

  it("reads plain JSON as the form's JSON answer, and passes any other choice through", async () => {
    const { store, asked } = storeOf();
    const endpoint = new SparqlEndpoint(projects, store);
    const json = chooser('application/json').choose;
    await endpoint.query('o/p', 'graph', request(SELECT), json);
    await endpoint.query('o/p', 'graph', request(ASK), json);
    await endpoint.query('o/p', 'graph', request(CONSTRUCT), json);
    await endpoint.query('o/p', 'graph', request('DESCRIBE <urn:x>'), json);
    await endpoint.query('o/p', 'graph', request(SELECT), chooser('text/csv').choose);
    expect(asked.map((q) => `${q.form} ${q.mediaType}`)).to.deep.equal([
      `select ${RESULTS}`,
      `ask ${RESULTS}`,
      'construct application/ld+json',
      'describe application/ld+json',
      'select text/csv',
    ]);
  });

  it("passes the protocol's graph parameters given, and only those", async () => {
    const { store, asked } = storeOf();
    const endpoint = new SparqlEndpoint(projects, store);
    const choose = chooser(RESULTS).choose;
    await endpoint.query('o/p', 'graph', request(SELECT, { defaultGraphs: ['urn:d'] }), choose);
    await endpoint.query('o/p', 'graph', request(SELECT, { namedGraphs: ['urn:n'] }), choose);
    await endpoint.query('o/p', 'graph', request(SELECT, { defaultGraphs: ['urn:d'], namedGraphs: ['urn:n'] }), choose);
    const base = { project: 'o/p', query: SELECT, form: 'select', mediaType: RESULTS };
    expect(asked).to.deep.equal([
      { ...base, defaultGraphs: ['urn:d'] },
      { ...base, namedGraphs: ['urn:n'] },
      { ...base, defaultGraphs: ['urn:d'], namedGraphs: ['urn:n'] },
    ]);
  });

  it('turns each failure of the store into its rejection, and lets other errors through', async () => {
    const cases: [QueryFailure, string, Record<string, unknown>][] = [
      [{ failure: 'invalid', message: 'bad token' }, 'MalformedQuery', {}],
      [{ failure: 'timeout', millis: 5 }, 'QueryTimeout', { millis: 5 }],
      [{ failure: 'busy', millis: 7 }, 'QueryServiceBusy', { millis: 7 }],
      [{ failure: 'tooLarge', limit: 9 }, 'QueryResultTooLarge', { limit: 9 }],
      [{ failure: 'crashed', message: 'oom' }, 'QueryWorkerCrashed', {}],
    ];
    for (const [reason, type, fields] of cases) {
      const endpoint = new SparqlEndpoint(projects, storeOf(() => new QueryFailed(reason)).store);
      const refused = await rejection(endpoint.query('o/p', 'graph', request(SELECT), chooser(RESULTS).choose));
      expect([refused.type, refused.fields]).to.deep.equal([type, fields]);
      if (reason.failure === 'invalid') expect(refused.reason).to.include('bad token');
    }
    const broken = new Error('the worker pool is closed');
    const endpoint = new SparqlEndpoint(projects, storeOf(() => broken).store);
    expect(await endpoint.query('o/p', 'graph', request(SELECT), chooser(RESULTS).choose).catch((e: unknown) => e)).to.equal(broken);
  });

  it('starts the query page with the mappings whose prefix SPARQL can spell', () => {
    const endpoint = new SparqlEndpoint(projects, storeOf().store);
    expect(endpoint.prefixes('o/p', 'graph').map((m) => m.prefix)).to.deep.equal(['sparql', 'ok', 'a.b-c_d9']);
  });
});

describe('SparqlEndpoint: other views', () => {
  /** Views that resolve `viewId` to `datasets`, recording what they were asked. */
  const viewsOf = (datasets: ViewDataset[] | undefined) => {
    const asked: unknown[][] = [];
    const views: SparqlViews = {
      datasets: async (...args) => {
        asked.push(args);
        return datasets;
      },
    };
    return { views, asked };
  };

  it("queries a view's one dataset: its project, or only its own graph when it names one, whatever the request names", async () => {
    const { store, asked } = storeOf();
    const choose = chooser(RESULTS).choose;
    const whole = viewsOf([{ project: 'o/other' }]);
    fetched.length = 0;
    await new SparqlEndpoint(projects, store, whole.views).query('o/p', 'nxv:view', request(SELECT, { defaultGraphs: ['urn:d'] }), choose, alice);
    expect(whole.asked).to.deep.equal([['o/p', 'nxv:view', alice]]);
    expect(fetched).to.deep.equal([]);
    const own = viewsOf([{ project: 'o/other', view: 'urn:view' }]);
    await new SparqlEndpoint(projects, store, own.views).query('o/p', 'nxv:view', request(SELECT, { defaultGraphs: ['urn:d'] }), choose, alice);
    const base = { project: 'o/other', query: SELECT, form: 'select', mediaType: RESULTS };
    expect(asked).to.deep.equal([
      { ...base, defaultGraphs: ['urn:d'] },
      { ...base, view: 'urn:view' },
    ]);
  });

  it('falls back to the default view when the views do not know the id, and asks them only for a caller', async () => {
    const { store, asked } = storeOf();
    const unknown = viewsOf(undefined);
    const endpoint = new SparqlEndpoint(projects, store, unknown.views);
    expect((await rejection(endpoint.query('o/p', 'nxv:view', request(SELECT), chooser(RESULTS).choose, alice))).type).to.equal('ViewNotFound');
    await endpoint.query('o/p', 'graph', request(SELECT), chooser(RESULTS).choose, alice);
    expect(asked.map((q) => q.project)).to.deep.equal(['o/p']);
    const known = viewsOf([{ project: 'o/other' }]);
    expect(
      (await rejection(new SparqlEndpoint(projects, store, known.views).query('o/p', 'nxv:view', request(SELECT), chooser(RESULTS).choose))).type,
    ).to.equal('ViewNotFound');
    expect(known.asked).to.deep.equal([]);
  });

  describe('an aggregate view: answers of several datasets merged', () => {
    const members = viewsOf([{ project: 'o/a' }, { project: 'o/b', view: 'urn:g' }]).views;
    const answering = (bodies: Record<string, string>) => storeOf((q) => ({ mediaType: q.mediaType, body: bodies[q.project]! }));

    it('asks every member in the mergeable type, within its graphs, and refuses when that type is not acceptable', async () => {
      const { store, asked } = answering({ 'o/a': '<urn:s> <urn:p> "a" .\n', 'o/b': '' });
      const endpoint = new SparqlEndpoint(projects, store, members);
      const none = chooser(undefined);
      const refused = await rejection(endpoint.query('o/p', 'nxv:agg', request(CONSTRUCT), none.choose, alice));
      expect(refused.fields).to.deep.equal({ supported: ['application/n-triples'] });
      expect(none.offers).to.deep.equal([['application/n-triples', 'application/json']]);
      const select = chooser(undefined);
      await rejection(endpoint.query('o/p', 'nxv:agg', request(SELECT), select.choose, alice));
      expect(select.offers).to.deep.equal([[RESULTS, 'application/json']]);
      expect(asked).to.deep.equal([]);
      await endpoint.query('o/p', 'nxv:agg', request(CONSTRUCT), chooser('text/turtle').choose, alice);
      expect(asked).to.deep.equal([
        { project: 'o/a', query: CONSTRUCT, form: 'construct', mediaType: 'application/n-triples' },
        { project: 'o/b', query: CONSTRUCT, form: 'construct', mediaType: 'application/n-triples', view: 'urn:g' },
      ]);
    });

    it('concatenates triples once each, without blank lines', async () => {
      const { store } = answering({
        'o/a': '<urn:s> <urn:p> "a" .\n<urn:s> <urn:p> "both" .\n',
        'o/b': '\n<urn:s> <urn:p> "both" .\n  \n<urn:t> <urn:p> "b" .',
      });
      for (const [query, form] of [
        [CONSTRUCT, 'construct'],
        ['DESCRIBE <urn:s>', 'describe'],
      ]) {
        const answer = await new SparqlEndpoint(projects, store, members).query('o/p', 'nxv:agg', request(query), chooser('application/json').choose, alice);
        expect(answer, form).to.deep.equal({
          mediaType: 'application/n-triples',
          body: '<urn:s> <urn:p> "a" .\n<urn:s> <urn:p> "both" .\n<urn:t> <urn:p> "b" .\n',
        });
      }
    });

    it('concatenates rows under every variable, and answers ASK true when any member does', async () => {
      const rows = answering({
        'o/a': JSON.stringify({ head: { vars: ['s', 'x'] }, results: { bindings: [{ s: 1 }, { s: 2 }] } }),
        'o/b': JSON.stringify({ head: { vars: ['s', 'y'] }, results: { bindings: [{ s: 3 }] } }),
      });
      const select = await new SparqlEndpoint(projects, rows.store, members).query('o/p', 'nxv:agg', request(SELECT), chooser(RESULTS).choose, alice);
      expect(select.mediaType).to.equal(RESULTS);
      expect(JSON.parse(select.body)).to.deep.equal({ head: { vars: ['s', 'x', 'y'] }, results: { bindings: [{ s: 1 }, { s: 2 }, { s: 3 }] } });
      const bare = answering({ 'o/a': JSON.stringify({ head: {} }), 'o/b': JSON.stringify({ head: { vars: ['s'] }, results: { bindings: [{ s: 3 }] } }) });
      const partial = await new SparqlEndpoint(projects, bare.store, members).query('o/p', 'nxv:agg', request(SELECT), chooser(RESULTS).choose, alice);
      expect(JSON.parse(partial.body)).to.deep.equal({ head: { vars: ['s'] }, results: { bindings: [{ s: 3 }] } });
      const ask = (a: boolean, b: boolean) =>
        answering({ 'o/a': JSON.stringify({ head: {}, boolean: a }), 'o/b': JSON.stringify({ head: {}, boolean: b }) }).store;
      for (const [a, b] of [
        [false, false],
        [false, true],
        [true, false],
      ] as const) {
        const answer = await new SparqlEndpoint(projects, ask(a, b), members).query('o/p', 'nxv:agg', request(ASK), chooser(RESULTS).choose, alice);
        expect(answer).to.deep.equal({ mediaType: RESULTS, body: JSON.stringify({ head: {}, boolean: a || b }) });
      }
    });

    it('answers an empty aggregate with nothing', async () => {
      const answer = await new SparqlEndpoint(projects, storeOf().store, viewsOf([]).views).query(
        'o/p',
        'nxv:agg',
        request(SELECT),
        chooser(RESULTS).choose,
        alice,
      );
      expect(JSON.parse(answer.body)).to.deep.equal({ head: { vars: [] }, results: { bindings: [] } });
    });
  });
});
