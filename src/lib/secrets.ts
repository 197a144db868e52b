import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Strapi's secrets and salts. In production every one must come from the environment: a
 * committed default would be silently shared by every deploy. Elsewhere a missing one is
 * generated once and kept in `.tmp/secrets.json`, so sessions and encrypted values survive
 * restarts without anybody having to invent values for a first run.
 */
export const SECRET_NAMES = [
  'APP_KEYS',
  'ADMIN_JWT_SECRET',
  'API_TOKEN_SALT',
  'TRANSFER_TOKEN_SALT',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
] as const;

export type SecretName = (typeof SECRET_NAMES)[number];

export function secret(name: SecretName): string {
  const fromEnv = process.env[name];
  if (fromEnv && fromEnv.trim() !== '') return fromEnv;
  if (process.env.NODE_ENV === 'production') {
    throw new Error(
      `${name} is not set. In production every one of ${SECRET_NAMES.join(', ')} must be set in the environment ` +
        "(generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\")."
    );
  }
  return developmentSecrets()[name];
}

export function appKeys(): string[] {
  return secret('APP_KEYS')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}

let cached: Record<SecretName, string> | undefined;

function developmentSecrets(): Record<SecretName, string> {
  if (cached) return cached;
  const file = process.env.SECRETS_FILE ?? path.resolve(process.cwd(), '.tmp', 'secrets.json');
  cached = readSecrets(file) ?? createSecrets(file);
  return cached;
}

function readSecrets(file: string): Record<SecretName, string> | undefined {
  if (!fs.existsSync(file)) return undefined;
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Record<SecretName, string>>;
  const missing = SECRET_NAMES.filter((name) => typeof parsed[name] !== 'string' || parsed[name] === '');
  if (missing.length > 0) throw new Error(`${file} lacks ${missing.join(', ')}; delete it to have it generated again`);
  return parsed as Record<SecretName, string>;
}

function createSecrets(file: string): Record<SecretName, string> {
  const random = () => crypto.randomBytes(32).toString('base64');
  const generated = Object.fromEntries(
    SECRET_NAMES.map((name) => [name, name === 'APP_KEYS' ? [random(), random(), random(), random()].join(',') : random()])
  ) as Record<SecretName, string>;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written aside then hard-linked into place: link fails if the file exists, so two processes
  // starting together (parallel test workers) agree on whichever one got there first.
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temporary, JSON.stringify(generated, null, 2), { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
    console.info(`[secrets] generated development secrets in ${file} (kept for restarts; production takes them from the environment)`);
    return generated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readSecrets(file) as Record<SecretName, string>;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
