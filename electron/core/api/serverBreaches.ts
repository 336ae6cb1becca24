import { z } from 'zod';

/**
 * What the client accepts from a server: the contract's shapes, tolerant where CONTRACT.md asks
 * (data class names in any case, `resolvedAt` missing, extra fields, date-times in any ISO form).
 */
const ServerBreach = z.object({
  id: z.string().min(1),
  domain: z.string(),
  breachDate: z.string().min(1),
  addedDate: z.string().min(1),
  modifiedDate: z.string().min(1),
  dataClasses: z.array(z.string()),
  isSensitive: z.boolean(),
});
const ServerUserBreach = z.object({
  breach: ServerBreach,
  /** Our service's mark of a breach that left its catalog (kept with its last known fields); other servers leave it out. */
  removedFromCatalogAt: z.string().min(1).optional(),
  breachedAccounts: z.array(
    z.object({
      email: z.string().min(1),
      resolvedDataClasses: z.record(
        z.string(),
        z
          .object({ resolvedAt: z.string().optional() })
          .nullable()
          .transform((value) => value ?? {}),
      ),
    }),
  ),
});
export const ServerUserBreachList = z.array(ServerUserBreach);
export type ServerUserBreach = z.infer<typeof ServerUserBreach>;

type Account = ServerUserBreach['breachedAccounts'][number];

/**
 * `GET /user/breaches` as the client accepts it (`ServerUserBreachList`, the definition), read
 * in one pass. The heavy user's 2,000 breaches cost zod several times JSON.parse, on every full
 * sync; this walks the parsed JSON once and checks each field the way the schema does. An
 * answer with nothing the schema would strip or rewrite (our service's) is kept as parsed;
 * another is copied with only the fields the schema keeps. Anything it does not accept goes to the schema itself,
 * whose error names the path — so the two can only differ in speed (a property test holds them
 * to the same answers).
 */
export function readServerBreaches(json: unknown): { ok: true; items: ServerUserBreach[] } | { ok: false; error: z.ZodError } {
  const items = readServerBreachesFast(json);
  if (items) return { ok: true, items };
  const parsed = ServerUserBreachList.safeParse(json);
  return parsed.success ? { ok: true, items: parsed.data } : { ok: false, error: parsed.error };
}

/** The one-pass reader alone: undefined where it does not accept (exported for the property test against the schema). */
export function readServerBreachesFast(json: unknown): ServerUserBreach[] | undefined {
  // What our service sends is already exactly the schema's output (no other fields, no null
  // states): checked in place, it is kept as parsed rather than copied, object by object.
  return isExactly(json) ? json : readCopying(json);
}

/**
 * True when `json` is what the schema accepts and returns unchanged: every field as the schema
 * checks it, and no field the schema would strip or rewrite (an unknown key, a null state).
 */
function isExactly(json: unknown): json is ServerUserBreach[] {
  if (!Array.isArray(json)) return false;
  for (let i = 0; i < json.length; i++) {
    const raw: unknown = json[i];
    if (!isPlain(raw)) return false;
    const breach = raw.breach;
    const accounts = raw.breachedAccounts;
    if (!isPlain(breach) || !Array.isArray(accounts)) return false;
    const removedFromCatalogAt = raw.removedFromCatalogAt;
    if (removedFromCatalogAt !== undefined && !filled(removedFromCatalogAt)) return false;
    if (keyCount(raw) !== ('removedFromCatalogAt' in raw ? 3 : 2)) return false;
    if (!isBreachFields(breach) || keyCount(breach) !== 7) return false;
    for (let j = 0; j < accounts.length; j++) {
      const account: unknown = accounts[j];
      if (!isPlain(account) || !filled(account.email) || keyCount(account) !== 2) return false;
      const resolved = account.resolvedDataClasses;
      if (!isPlain(resolved)) return false;
      for (const name in resolved) {
        if (name === '__proto__' || !Object.hasOwn(resolved, name)) return false;
        const state: unknown = resolved[name];
        if (!isPlain(state)) return false;
        const count = keyCount(state);
        if (count > 1 || (count === 1 && typeof state.resolvedAt !== 'string')) return false;
      }
    }
  }
  return true;
}

/** An object as JSON.parse makes it (the schema's output is one: another prototype is copied). */
function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** How many enumerable keys `value` has (own and inherited: a plain object has only its own). */
function keyCount(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

function readCopying(json: unknown): ServerUserBreach[] | undefined {
  if (!Array.isArray(json)) return undefined;
  const items = new Array<ServerUserBreach>(json.length);
  for (let i = 0; i < json.length; i++) {
    const raw: unknown = json[i];
    if (!isRecord(raw)) return undefined;
    const breach = raw.breach;
    const accounts = raw.breachedAccounts;
    if (!isRecord(breach) || !Array.isArray(accounts)) return undefined;
    if (!isBreachFields(breach)) return undefined;
    const { id, domain, breachDate, addedDate, modifiedDate, dataClasses, isSensitive } = breach;
    const removedFromCatalogAt = raw.removedFromCatalogAt;
    if (removedFromCatalogAt !== undefined && !filled(removedFromCatalogAt)) return undefined;
    const breachedAccounts = new Array<Account>(accounts.length);
    for (let j = 0; j < accounts.length; j++) {
      const account: unknown = accounts[j];
      if (!isRecord(account) || !filled(account.email) || !isRecord(account.resolvedDataClasses)) return undefined;
      const resolved: Account['resolvedDataClasses'] = {};
      for (const name in account.resolvedDataClasses) {
        // A key that would set the copy's prototype is left to the schema.
        if (name === '__proto__') return undefined;
        const state: unknown = account.resolvedDataClasses[name];
        if (state === null) resolved[name] = {};
        else if (!isRecord(state) || (state.resolvedAt !== undefined && typeof state.resolvedAt !== 'string')) return undefined;
        // A key that is present (even as undefined, which only a JS caller can send) is kept, as zod keeps it.
        else resolved[name] = 'resolvedAt' in state ? { resolvedAt: state.resolvedAt as string | undefined } : {};
      }
      breachedAccounts[j] = { email: account.email, resolvedDataClasses: resolved };
    }
    const item: ServerUserBreach = { breach: { id, domain, breachDate, addedDate, modifiedDate, dataClasses: [...dataClasses], isSensitive }, breachedAccounts };
    // Only when present, as zod leaves an absent optional key out.
    if (removedFromCatalogAt !== undefined) item.removedFromCatalogAt = removedFromCatalogAt;
    items[i] = item;
  }
  return items;
}

/** The breach's fields as `ServerBreach` checks them (what else the object holds is the caller's to judge). */
function isBreachFields(breach: Record<string, unknown>): breach is Record<string, unknown> & ServerUserBreach['breach'] {
  const { id, domain, breachDate, addedDate, modifiedDate, dataClasses, isSensitive } = breach;
  if (!filled(id) || typeof domain !== 'string' || !filled(breachDate) || !filled(addedDate) || !filled(modifiedDate) || typeof isSensitive !== 'boolean') return false;
  if (!Array.isArray(dataClasses)) return false;
  for (let k = 0; k < dataClasses.length; k++) if (typeof dataClasses[k] !== 'string') return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function filled(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}
