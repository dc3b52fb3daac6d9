import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/Config.js';
import { Addresses } from '../../src/kernel/Addresses.js';

/** Delta 1.12: `app.projects.prefix.base` / `.vocab`, templates naming `{{org}}` and `{{project}}`. */
describe("new projects' default base and vocab from the configuration", () => {
  it('reads PROJECT_BASE and PROJECT_VOCAB, or projects.prefix.base and .vocab in the config file', () => {
    expect(loadConfig({}).projectPrefix).to.deep.equal({});
    const env = loadConfig({ PROJECT_BASE: 'https://ex.org/{{org}}/{{project}}/', PROJECT_VOCAB: 'https://ex.org/terms#' });
    expect(env.projectPrefix).to.deep.equal({ base: 'https://ex.org/{{org}}/{{project}}/', vocab: 'https://ex.org/terms#' });
    const dir = mkdtempSync(join(tmpdir(), 'prefix-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ projects: { prefix: { vocab: 'https://ex.org/v/{{ project }}/' } } }));
    expect(loadConfig({ CONFIG_FILE: file }).projectPrefix).to.deep.equal({ vocab: 'https://ex.org/v/{{ project }}/' });
  });

  it('stops the start naming the setting when a template does not make a prefix IRI', () => {
    expect(() => loadConfig({ PROJECT_BASE: 'not an iri/' })).to.throw(ConfigError, 'PROJECT_BASE');
    expect(() => loadConfig({ PROJECT_BASE: 'https://ex.org/{{org}}' })).to.throw(ConfigError, "ending with '/' or '#'");
    expect(() => loadConfig({ PROJECT_VOCAB: 'https://ex.org/{{label}}/' })).to.throw(ConfigError, "PROJECT_VOCAB': only {{org}} and {{project}}");
  });

  it("renders a project's defaults from the templates, each falling back to the service's own address", () => {
    const addresses = new Addresses('http://localhost:8080', { base: 'https://ex.org/{{org}}/{{project}}/' });
    expect(addresses.projectDefaults('myorg', 'myproj')).to.deep.equal({
      base: 'https://ex.org/myorg/myproj/',
      vocab: 'http://localhost:8080/v1/vocabs/myorg/myproj/',
    });
    expect(new Addresses('http://h').projectDefaults('o', 'p')).to.deep.equal({ base: 'http://h/v1/resources/o/p/_/', vocab: 'http://h/v1/vocabs/o/p/' });
  });
});
