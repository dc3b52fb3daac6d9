import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { serve } from '../support/server.js';
import { client } from '../support/client.js';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The SPARQL query page runs only its own files and its one inline script, and may not be framed (issue 32, finding 11). */
describe('the SPARQL query page sends a Content-Security-Policy', function () {
  this.timeout(30_000);
  let api: ReturnType<typeof client>;
  serve((_s, a) => (api = a));

  it("names its inline script by its hash (no 'unsafe-inline' for scripts) and forbids framing", async () => {
    await api.put('/v1/orgs/csp', {});
    await api.put('/v1/projects/csp/p', { apiMappings: [{ prefix: 'ex', namespace: 'http://example.org/' }] });
    const res = await api.get('/v1/views/csp/p/graph/sparql', { accept: 'text/html' });
    expect(res.status).to.equal(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives['frame-ancestors']).to.equal("'none'");
    const inline = [...res.text.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1]!);
    expect(inline).to.have.length(1);
    expect(directives['script-src']).to.equal(`'self' ${hashOf(inline[0]!)}`);
    // Yasgui adds style elements of its own as it draws: styles only are inline.
    expect(directives['style-src']).to.equal("'self' 'unsafe-inline'");
    expect(directives['object-src']).to.equal("'none'");
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
  });
});
