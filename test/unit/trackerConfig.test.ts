import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { ConfigError } from '../../src/kernel/ConfigError.js';
import { trackerConfig } from '../../src/config/trackerConfig.js';

describe('plugins.jira configuration', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  const complete = { enabled: 'true', base: 'https://jira.example.org/', 'consumer-key': 'registry', 'private-key': pem };
  const read = (values: Record<string, string | undefined>) => trackerConfig((key) => values[key.replace('plugins.jira.', '')]);
  const refusal = (values: Record<string, string | undefined>): ConfigError => {
    try {
      read(values);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('expected a ConfigError');
  };

  it('reads the keys: the base without its trailing slash, the PEM key, the default timeout', () => {
    const config = read(complete)!;
    expect(config.base).to.equal('https://jira.example.org');
    expect(config.consumerKey).to.equal('registry');
    expect(config.privateKey.asymmetricKeyType).to.equal('rsa');
    expect(config.timeoutMillis).to.equal(10_000);
    expect(config.tokenKey).to.equal(undefined);
    expect(read({ ...complete, timeout: '2500' })!.timeoutMillis).to.equal(2500);
  });

  it('accepts the bare base64 of the PKCS#8 DER, as the public system has it', () => {
    const config = read({ ...complete, 'private-key': der })!;
    expect(config.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()).to.equal(pem);
  });

  it('is off unless enabled is true and base, consumer-key and private-key are all given', () => {
    expect(read({})).to.equal(undefined);
    expect(read({ ...complete, enabled: 'false' })).to.equal(undefined);
    expect(read({ ...complete, enabled: undefined })).to.equal(undefined);
    for (const key of ['base', 'consumer-key', 'private-key']) expect(read({ ...complete, [key]: undefined }), key).to.equal(undefined);
  });

  it('stops the start-up naming a value that is given but unusable', () => {
    expect(refusal({ ...complete, enabled: 'yes' }).setting).to.equal('plugins.jira.enabled');
    expect(refusal({ ...complete, 'private-key': 'not a key' }).setting).to.equal('plugins.jira.private-key');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(refusal({ ...complete, 'private-key': ec }).message).to.contain('RSA');
    expect(refusal({ ...complete, base: 'http://jira.example.org' }).setting).to.equal('plugins.jira.base');
    expect(refusal({ ...complete, base: 'not an address' }).setting).to.equal('plugins.jira.base');
    expect(refusal({ ...complete, timeout: '5s' }).setting).to.equal('plugins.jira.timeout');
    expect(refusal({ ...complete, 'token-key': Buffer.alloc(16).toString('base64') }).setting).to.equal('plugins.jira.token-key');
  });

  it('takes plain http on loopback, and a token key of 32 bytes', () => {
    const key = Buffer.alloc(32, 7);
    const config = read({ ...complete, base: 'http://127.0.0.1:8081', 'token-key': key.toString('base64') })!;
    expect(config.base).to.equal('http://127.0.0.1:8081');
    expect(config.tokenKey!.equals(key)).to.equal(true);
  });
});
