import { inheritedNameProblem } from '../api/primitives.ts';

/**
 * Breach ids as keys of the details feed (`catalog/breaches/<key>`) and back. A breach is
 * whatever Have I Been Pwned names it, while a realtime-database key may not hold `. $ # [ ] /`
 * nor control characters (Firebase's rule, kept by the service), and a key such as `__proto__`
 * is a name every JavaScript object inherits, which a client building a plain object from the
 * feed would trip over. So those characters, and `%` itself, are written as `%XX` (their
 * code in hex, as in a URL), and an id that is an inherited name has its first character so
 * written (`__proto__` → `%5F_proto__`). Every other id is its own key: feeds written before
 * this read the same.
 */
// eslint-disable-next-line no-control-regex -- control characters are what a key may not hold
const ENCODED = /[%.$#[\]/\u0000-\u001f\u007f]/g;
const ESCAPE = /%([0-9A-F]{2})/g;

const hex = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

export function feedKeyOf(id: string): string {
  const key = id.replace(ENCODED, hex);
  return inheritedNameProblem(key) === undefined ? key : hex(key.charAt(0)) + key.slice(1);
}

/** The breach id a feed key stands for ({@link feedKeyOf} undone). */
export function idOfFeedKey(key: string): string {
  return key.replace(ESCAPE, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
}
