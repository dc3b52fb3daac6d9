import { expect } from 'chai';
import type { Request, Response } from 'express';
import { errorMiddleware } from '../../src/http/errorMiddleware.js';
import type { Log } from '../../src/kernel/Log.js';

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
});
