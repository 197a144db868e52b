import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The secrets helper is loaded fresh in each test because it caches what it read. */
function loadSecrets() {
  let loaded: typeof import('../../src/lib/secrets') | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module for each case
    loaded = require('../../src/lib/secrets');
  });
  return loaded as typeof import('../../src/lib/secrets');
}

describe('secrets', () => {
  const saved = { ...process.env };
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    process.env.SECRETS_FILE = path.join(dir, 'secrets.json');
    for (const name of ['APP_KEYS', 'ADMIN_JWT_SECRET', 'API_TOKEN_SALT', 'TRANSFER_TOKEN_SALT', 'JWT_SECRET', 'ENCRYPTION_KEY'])
      delete process.env[name];
  });

  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('generates development secrets once and keeps them across restarts', () => {
    process.env.NODE_ENV = 'development';
    const first = loadSecrets().secret('JWT_SECRET');
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(loadSecrets().secret('JWT_SECRET')).toBe(first);
    expect(loadSecrets().appKeys()).toHaveLength(4);
    expect(fs.statSync(process.env.SECRETS_FILE as string).mode & 0o777).toBe(0o600);
  });

  it('prefers the environment', () => {
    process.env.NODE_ENV = 'development';
    process.env.APP_KEYS = 'a, b';
    expect(loadSecrets().appKeys()).toEqual(['a', 'b']);
  });

  it('refuses to run in production without the environment', () => {
    process.env.NODE_ENV = 'production';
    expect(() => loadSecrets().secret('ADMIN_JWT_SECRET')).toThrow(/ADMIN_JWT_SECRET is not set. In production/);
    expect(fs.existsSync(process.env.SECRETS_FILE as string)).toBe(false);
  });
});
