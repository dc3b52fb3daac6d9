import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/Config.js';
import { inProcessEngine, SearchService } from '../../src/search/SearchService.js';
import { SearchedDocuments } from '../../src/search/SearchedDocuments.js';
import { TextIndex } from '../../src/search/TextIndex.js';

describe('search configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'search-config-unit-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads plugins.search.fields and plugins.search.suites from the config file, TEXT_INDEX from the environment', () => {
    const config = loadConfig({
      CONFIG_FILE: file('config.json', JSON.stringify({ plugins: { search: { fields: '/x/fields.json', suites: { neuro: ['o/p1', 'o/p2'] } } } })),
      TEXT_INDEX: 'off',
    });
    expect(config.searchFields).to.equal('/x/fields.json');
    expect(config.searchSuites).to.deep.equal({ neuro: ['o/p1', 'o/p2'] });
    expect(config.textIndex).to.equal(false);
    expect(loadConfig({}).textIndex).to.equal(true);
    expect(loadConfig({}).searchSuites).to.deep.equal({});
    expect(loadConfig({ SEARCH_SUITES: '{"s": ["a/b"]}' }).searchSuites).to.deep.equal({ s: ['a/b'] });
  });

  it('stops the start naming the setting when a value cannot be used', () => {
    expect(() => loadConfig({ TEXT_INDEX: 'maybe' })).to.throw(ConfigError, 'TEXT_INDEX');
    expect(() => loadConfig({ SEARCH_SUITES: '{"s": ["not a project"]}' })).to.throw(ConfigError, 'SEARCH_SUITES');
    expect(() => loadConfig({ SEARCH_SUITES: '[1]' })).to.throw(ConfigError, 'SEARCH_SUITES');
    const index = TextIndex.open(':memory:');
    const engine = inProcessEngine(new SearchedDocuments(index), undefined);
    const service = (fieldsFile: string) => () =>
      new SearchService(
        engine,
        () => undefined,
        () => [],
        { suites: {}, fieldsFile },
      );
    expect(service(file('bad.json', '{'))).to.throw(ConfigError, 'SEARCH_FIELDS');
    expect(service(join(dir, 'missing.json'))).to.throw(ConfigError, 'SEARCH_FIELDS');
    index.close();
  });
});
