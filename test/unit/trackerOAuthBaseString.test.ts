import { expect } from 'chai';
import { authorizationParams, requestBaseString } from '../support/trackerServer.js';

/** The test tracker's reading of a signed request, checked against RFC 5849's own worked example. */
describe('the test tracker: the RFC 5849 signature base string', () => {
  it('builds the base string of RFC 5849 §3.4.1.1 from the example request', () => {
    const authorization = authorizationParams(
      'OAuth realm="Example", oauth_consumer_key="9djdj82h48djs9d2", oauth_token="kkk9d7dh3k39sjv7", oauth_signature_method="HMAC-SHA1", ' +
        'oauth_timestamp="137131201", oauth_nonce="7d8f3e4a", oauth_signature="bYT5CMsGcbgUdFHObYMEfcx6bsw%3D"',
    )!;
    const base = requestBaseString({
      method: 'POST',
      target: '/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b',
      host: 'example.com',
      authorization,
      contentType: 'application/x-www-form-urlencoded',
      body: 'c2&a3=2+q',
    });
    expect(base).to.equal(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26' +
        'oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26' +
        'oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });

  it('leaves a JSON body out, drops the default port and keeps another one', () => {
    const request = { method: 'post', target: '/rest/api/2/search', authorization: [['oauth_token', 't']] as [string, string][], body: '{"jql":"a=b"}' };
    expect(requestBaseString({ ...request, host: 'Tracker.Example:80', contentType: 'application/json' })).to.equal(
      'POST&http%3A%2F%2Ftracker.example%2Frest%2Fapi%2F2%2Fsearch&oauth_token%3Dt',
    );
    expect(requestBaseString({ ...request, host: '127.0.0.1:8081', contentType: 'application/json' })).to.equal(
      'POST&http%3A%2F%2F127.0.0.1%3A8081%2Frest%2Fapi%2F2%2Fsearch&oauth_token%3Dt',
    );
  });
});
