import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';

export interface IdentityKeys {
  /** Private RS256 signing key (with `kid`, `alg`, `use`); never leaves the process except to disk. */
  signingKey: JWK & { kid: string; alg: 'RS256' };
  /** Secrets oidc-provider signs its cookies with. */
  cookieKeys: string[];
}

export interface KeyFile {
  keys: JWK[];
  cookieKeys: string[];
}

export const KEY_FILE_NAME = 'jwks.json';

/**
 * Keys live on disk so that tokens, sessions and cookies issued before a restart stay valid.
 * The file holds private material, hence 0600 inside a 0700 directory.
 */
export async function loadOrCreateIdentityKeys(dir: string): Promise<IdentityKeys> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // mkdir leaves an existing folder's mode as it was
  const file = join(dir, KEY_FILE_NAME);
  const existing = readKeyFile(file);
  if (existing) return existing;

  const keys = await generateKeys();
  writeKeyFile(file, { keys: [keys.signingKey], cookieKeys: keys.cookieKeys });
  return keys;
}

function readKeyFile(file: string): IdentityKeys | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const keys = parseKeySet(JSON.parse(text) as Partial<KeyFile>, `identity key file ${file}`, 'delete it to generate new keys');
  // Tighten permissions of files written by an older version or copied around by hand.
  chmodSync(file, 0o600);
  return keys;
}

/** The keys of a stored key set (`{keys, cookieKeys}`); `where` and `remedy` word the refusal of an incomplete one. */
export function parseKeySet(parsed: Partial<KeyFile>, where: string, remedy: string): IdentityKeys {
  const signingKey = parsed.keys?.find((key) => key.kty === 'RSA' && typeof key.d === 'string' && typeof key.kid === 'string');
  if (!signingKey || !Array.isArray(parsed.cookieKeys) || parsed.cookieKeys.length === 0) {
    // Refuse to silently regenerate: that would invalidate every token and session without a trace.
    throw new Error(`${where} is incomplete; ${remedy}`);
  }
  return {
    signingKey: { ...signingKey, kid: signingKey.kid as string, alg: 'RS256', use: 'sig' },
    cookieKeys: parsed.cookieKeys,
  };
}

export async function generateKeys(): Promise<IdentityKeys> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint({ kty: 'RSA', e: jwk.e, n: jwk.n });
  return {
    signingKey: { ...jwk, kid, alg: 'RS256', use: 'sig' },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

function writeKeyFile(file: string, content: KeyFile): void {
  // Write-then-rename so a crash never leaves a half-written key file behind.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(content, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  renameSync(temporary, file);
}
