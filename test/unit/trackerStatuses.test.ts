import { expect } from 'chai';
import { statusOf } from '../../src/http/statusOf.js';
import { trackerRejections } from '../../src/tracker/trackerRejections.js';

describe('tracker rejections and their statuses', () => {
  it('gives every tracker rejection a status: 400 for the flow, 502 for a tracker that fails to answer', () => {
    const statuses = Object.fromEntries(
      Object.values(trackerRejections).map((build) => {
        const rejection = (build as (...args: unknown[]) => { type: string })(400, 'x');
        return [rejection.type, statusOf(rejection.type)];
      }),
    );
    expect(statuses).to.deep.equal({
      TrackerNotConfigured: 400,
      NoTokenError: 400,
      RequestTokenExpected: 400,
      AccessTokenExpected: 400,
      JiraResponseError: 400,
      TrackerTimeout: 502,
      TrackerUnreachable: 502,
      TrackerUnexpectedAnswer: 502,
    });
  });

  it("relays the tracker's error status, and only an error status", () => {
    const of = (status: number) => {
      const r = trackerRejections.responseError(status, {});
      return statusOf(r.type, r.fields);
    };
    expect([of(401), of(404), of(415), of(503)]).to.deep.equal([401, 404, 415, 503]);
    expect([of(302), of(200), of(600)]).to.deep.equal([400, 400, 400]);
    // Another family's rejection cannot borrow the field.
    expect(statusOf('NoTokenError', { relayedStatus: 500 })).to.equal(400);
  });
});
