import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/Config.js';

/** Delta's `realms.provisioning` and `acls.provisioning` keys, off unless enabled. */
describe('provisioning configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'provisioning-config-'));
  const withFile = (tree: unknown) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(tree));
    return loadConfig({ CONFIG_FILE: path });
  };

  it("reads Delta's keys: realms by label (name, open-id-config, logo, accepted-audiences) and the ACL file's path", () => {
    expect(loadConfig({}).provisioning).to.deep.equal({ realms: {} });
    const config = withFile({
      realms: {
        provisioning: {
          enabled: true,
          realms: { r1: { name: 'R1', 'open-id-config': 'https://idp/.well-known/openid-configuration', 'accepted-audiences': ['a'] } },
        },
      },
      acls: { provisioning: { enabled: true, path: '/etc/registry/acls.json' } },
    });
    expect(config.provisioning).to.deep.equal({
      realms: { r1: { name: 'R1', openIdConfig: 'https://idp/.well-known/openid-configuration', acceptedAudiences: ['a'] } },
      aclFile: '/etc/registry/acls.json',
    });
    // Not enabled: nothing provisioned, as in Delta.
    expect(withFile({ realms: { provisioning: { realms: { r1: { name: 'R1', 'open-id-config': 'https://idp/x' } } } } }).provisioning).to.deep.equal({
      realms: {},
    });
    expect(loadConfig({ ACLS_PROVISIONING_ENABLED: 'true', ACLS_PROVISIONING_PATH: '/x.json' }).provisioning).to.deep.equal({ realms: {}, aclFile: '/x.json' });
  });

  it('stops the start naming the setting when a realm or the ACL setting cannot be used', () => {
    const on = (realms: unknown) => () => withFile({ realms: { provisioning: { enabled: true, realms } } });
    expect(on({ r1: { name: 'R1' } })).to.throw(ConfigError, "realms.provisioning.realms': realm 'r1': 'open-id-config'");
    expect(on({ 'bad label': { name: 'x', 'open-id-config': 'https://i/x' } })).to.throw(ConfigError, "realm 'bad label'");
    expect(on([1])).to.throw(ConfigError, 'realms.provisioning.realms');
    expect(() => loadConfig({ ACLS_PROVISIONING_ENABLED: 'true' })).to.throw(ConfigError, 'acls.provisioning.path');
    expect(() => loadConfig({ ACLS_PROVISIONING_ENABLED: 'maybe' })).to.throw(ConfigError, 'acls.provisioning.enabled');
  });
});
