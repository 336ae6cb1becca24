import { randomInt, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { EmailRules } from '../../shared/api/index.ts';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number, options: { N: number }) => Promise<Buffer>;

/** scrypt's cost: a stolen database cannot try the million codes of one address in moments. */
const SCRYPT_N = 2 ** 14;

/** A fresh code of {@link EmailRules.codeDigits} digits, uniformly drawn. */
export function newCode(): string {
  return String(randomInt(0, 10 ** EmailRules.codeDigits)).padStart(EmailRules.codeDigits, '0');
}

/**
 * The code as stored: `scrypt$salt$hash`, over the person, the address and the code, so a stored
 * hash only ever proves that one code for that one person and address.
 */
export async function hashCode(sub: string, email: string, code: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(`${sub}\n${email}\n${code}`, salt, 32, { N: SCRYPT_N });
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function codeMatches(stored: string, sub: string, email: string, code: string): Promise<boolean> {
  const [kind, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(`${sub}\n${email}\n${code}`, Buffer.from(salt, 'base64url'), expected.length, { N: SCRYPT_N });
  return timingSafeEqual(actual, expected);
}
