import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { EncryptedTokenFile } from '../../src/tracker/EncryptedTokenFile.js';
import type { Log } from '../../src/kernel/Log.js';

describe('Tracker tokens in an encrypted file', () => {
  let dir: string;
  let path: string;
  const key = randomBytes(32);
  const warnings: string[] = [];
  const log: Log = { info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined };
  const alice = { realm: 'r1', subject: 'alice' };
  const bob = { realm: 'r1', subject: 'bob' };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-tokens-'));
    path = join(dir, 'tracker', 'tokens.json');
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps one token per user, replaced by each save, across a reopen, and never in clear', async () => {
    const store = new EncryptedTokenFile(path, key, log);
    await store.save(alice, { kind: 'request', value: 'alice-request-token' });
    await Promise.all([store.save(alice, { kind: 'access', value: 'alice-access-token' }), store.save(bob, { kind: 'access', value: 'bob-access-token' })]);
    const reopened = new EncryptedTokenFile(path, key, log);
    expect(await reopened.get(alice)).to.deep.equal({ kind: 'access', value: 'alice-access-token' });
    expect(await reopened.get(bob)).to.deep.equal({ kind: 'access', value: 'bob-access-token' });
    expect(await reopened.get({ realm: 'r2', subject: 'alice' })).to.equal(undefined);
    const text = readFileSync(path, 'utf8');
    for (const clear of ['alice-request-token', 'alice-access-token', 'bob-access-token', '"alice"', '"r1"']) expect(text).to.not.contain(clear);
  });

  it('reads a row under another key, moved to another user or altered as no token (the user authorizes again)', async () => {
    await new EncryptedTokenFile(path, key, log).save(alice, { kind: 'access', value: 'alice-access-token' });
    expect(await new EncryptedTokenFile(path, randomBytes(32), log).get(alice)).to.equal(undefined);
    const rows = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
    const [aliceRow] = Object.values(rows);
    // Alice's row under Bob's name does not decrypt: the row name is authenticated with it.
    const bobsName = Object.keys(JSON.parse(readFileSync(await savedBobPath(), 'utf8')) as Record<string, string>)[0]!;
    writeFileSync(path, JSON.stringify({ ...rows, [bobsName]: aliceRow }));
    expect(await new EncryptedTokenFile(path, key, log).get(bob)).to.equal(undefined);
    writeFileSync(path, JSON.stringify(Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, `${v.slice(0, -4)}AAA=`]))));
    expect(await new EncryptedTokenFile(path, key, log).get(alice)).to.equal(undefined);
    expect(warnings).to.have.length(3);
    for (const w of warnings) expect(w).to.not.contain('alice-access-token');
  });

  it('sets a file that cannot be read aside and starts empty, without refusing to start', async () => {
    mkdirSync(join(dir, 'tracker'), { recursive: true });
    writeFileSync(path, '{"half": ');
    const store = new EncryptedTokenFile(path, key, log);
    expect(await store.get(alice)).to.equal(undefined);
    expect(readdirSync(join(dir, 'tracker')).some((name) => name.startsWith('tokens.json.damaged-'))).to.equal(true);
    expect(warnings).to.have.length(1);
    await store.save(alice, { kind: 'access', value: 'again' });
    expect(await new EncryptedTokenFile(path, key, log).get(alice)).to.deep.equal({ kind: 'access', value: 'again' });
  });

  /** A file holding a row for Bob only, to learn the name of his row. */
  const savedBobPath = async (): Promise<string> => {
    const other = join(dir, 'bob.json');
    await new EncryptedTokenFile(other, key, log).save(bob, { kind: 'access', value: 'x' });
    return other;
  };
});
