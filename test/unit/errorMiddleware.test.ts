import { expect } from 'chai';
import type { Request, Response } from 'express';
import { errorMiddleware } from '../../src/http/errorMiddleware.js';
import type { Log } from '../../src/kernel/Log.js';
import { SparqlRequestFailed } from '../../src/store/SparqlHttpClient.js';

/** The parts of a response the middleware writes. */
const response = () => {
  const sent: { status?: number; type?: string; body?: string } = {};
  const res = {
    headersSent: false,
    setHeader: () => res,
    status: (s: number) => ((sent.status = s), res),
    type: (t: string) => ((sent.type = t), res),
    send: (b: string) => ((sent.body = b), res),
    end: () => res,
  };
  return { res: res as unknown as Response, sent };
};

describe('error middleware', () => {
  it('answers an error of ours with 500 UnexpectedError, logs it, and never shows its message', () => {
    const logged: string[] = [];
    const log = { error: (line: string, fields?: Record<string, unknown>) => logged.push(`${line} ${JSON.stringify(fields)}`) } as unknown as Log;
    const { res, sent } = response();
    errorMiddleware(log)(new Error('secret internals at /srv/x'), {} as Request, res, () => undefined);
    expect(sent.status).to.equal(500);
    const body = JSON.parse(sent.body!) as Record<string, unknown>;
    expect(body['@type']).to.equal('UnexpectedError');
    expect(sent.body).not.to.include('secret internals');
    expect(logged.join('\n')).to.include('secret internals');
  });

  it("renders a store's refusal of a query this service built as ours (500, logged), never as the client's 400", () => {
    const logged: string[] = [];
    const log = { error: (line: string, fields?: Record<string, unknown>) => logged.push(`${line} ${JSON.stringify(fields)}`) } as unknown as Log;
    const { res, sent } = response();
    errorMiddleware(log)(new SparqlRequestFailed('400 from http://127.0.0.1:8890/sparql: SP030: Bad character', 400), {} as Request, res, () => undefined);
    expect(sent.status).to.equal(500);
    expect((JSON.parse(sent.body!) as Record<string, unknown>)['@type']).to.equal('UnexpectedError');
    expect(logged.join('\n')).to.include('SP030');
  });

  it('renders a store away or late as StoreUnavailable (503, Retry-After)', () => {
    const log = { error: () => undefined } as unknown as Log;
    for (const failure of [new SparqlRequestFailed('no answer within 10 ms', undefined, true), new SparqlRequestFailed('503 busy', 503, false, true)]) {
      const headers: Record<string, string> = {};
      const { res, sent } = response();
      (res as unknown as { setHeader: (n: string, v: string) => unknown }).setHeader = (n: string, v: string) => (headers[n] = v);
      errorMiddleware(log)(failure, {} as Request, res, () => undefined);
      expect(sent.status).to.equal(503);
      expect((JSON.parse(sent.body!) as Record<string, unknown>)['@type']).to.equal('StoreUnavailable');
      expect(headers['Retry-After']).to.equal('1');
    }
  });
});
