import type { LoginExportFormat } from '../../../shared/ipc/logins.ts';
import type { ImportWrite, LoginToKeep, StoredLogin } from '../db/loginQueries.ts';
import { loginAddress } from './loginAddress.ts';
import type { PasswordHasher } from './LoginHashKey.ts';
import { verdictOf, type SiteBreachIndex } from './siteBreaches.ts';

/** One login as an export reader gives it (exports/readLoginExport.ts's ExportedLogin). */
export interface ExportedLoginLike {
  row: number;
  title: string | null;
  url: string | null;
  username: string;
  password: string;
  /** ISO date-time, or null when the export does not say. */
  passwordChangedAt: string | null;
}

export interface ImportPlan {
  write: ImportWrite;
  /** The distinct passwords of the import by keyed hash: held in memory only, for the Pwned Passwords check. */
  passwords: Map<string, string>;
  /** Sites of the import with a breach in the catalog that a password there predates (or may: no date). */
  breachedSites: number;
  /** Sites of the import with a breach in the catalog where every password was changed since. */
  breachedSitesChangedSince: number;
}

/** Which account a login is: the same site (or, without one, address or title) and username. */
function accountKey(login: Pick<LoginToKeep, 'site' | 'url' | 'title' | 'username'>): string {
  return JSON.stringify([login.site ?? login.url ?? login.title ?? '', login.username]);
}

function isoOrNull(text: string | null): string | null {
  if (text === null) return null;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/**
 * Decides what an import writes, against what is kept already: the same account with the same
 * password is unchanged; the same account with another password has changed it (the kept login
 * takes the new hash and its findings are resolved); any other login is new. The same login
 * twice in one file is kept once. `onProgress` is told after each login; `checkpoint` runs every
 * `every` logins (the importer yields there, so a cancel can arrive, and throws if it did).
 */
export async function planImport(
  exported: readonly ExportedLoginLike[],
  context: {
    format: LoginExportFormat;
    skipped: number;
    importedAt: string;
    hash: PasswordHasher;
    kept: readonly StoredLogin[];
    /** False when the kept logins' hashes were made under another key: then they cannot be compared. */
    comparable?: boolean;
    breaches: SiteBreachIndex;
    onProgress?: (done: number, total: number) => void;
    checkpoint?: () => Promise<void>;
    every?: number;
  },
): Promise<ImportPlan> {
  const every = context.every ?? 500;
  const keptByAccount = new Map<string, StoredLogin[]>();
  for (const login of context.kept) {
    const key = accountKey(login);
    const list = keptByAccount.get(key);
    if (list) list.push(login);
    else keptByAccount.set(key, [login]);
  }
  const breachesOf = (login: LoginToKeep) => context.breaches.at(login.site).map(({ breachId, title, breachDate }) => ({ breachId, title, breachDate }));
  const passwords = new Map<string, string>();
  const seen = new Set<string>();
  const claimed = new Set<number>();
  const unchanged: ImportWrite['unchanged'] = [];
  /** Logins whose account is kept with another password: matched to a kept login once every unchanged one is known. */
  const otherPassword: LoginToKeep[] = [];
  const fresh: LoginToKeep[] = [];
  for (let i = 0; i < exported.length; i++) {
    if (i > 0 && i % every === 0) await context.checkpoint?.();
    const entry = exported[i]!;
    const hash = context.hash(entry.password);
    const login: LoginToKeep = { ...loginAddress(entry.url), title: entry.title, username: entry.username, passwordHash: hash, passwordChangedAt: isoOrNull(entry.passwordChangedAt) };
    const key = accountKey(login);
    const once = JSON.stringify([key, hash]);
    if (seen.has(once)) continue;
    seen.add(once);
    passwords.set(hash, entry.password);
    const kept = keptByAccount.get(key);
    const same = kept?.find((candidate) => candidate.passwordHash === hash && !claimed.has(candidate.id));
    if (same) {
      claimed.add(same.id);
      unchanged.push({ id: same.id, login, breaches: breachesOf(login) });
    } else if (kept) otherPassword.push(login);
    else fresh.push(login);
    context.onProgress?.(i + 1, exported.length);
  }
  const changed: ImportWrite['changed'] = [];
  const rehashed: ImportWrite['rehashed'] = [];
  const comparable = context.comparable ?? true;
  for (const login of otherPassword) {
    const previous = keptByAccount.get(accountKey(login))!.find((candidate) => !claimed.has(candidate.id));
    if (previous) {
      claimed.add(previous.id);
      (comparable ? changed : rehashed).push({ id: previous.id, login, breaches: breachesOf(login) });
    } else fresh.push(login);
  }
  const added = fresh.map((login) => ({ login, breaches: breachesOf(login) }));
  // Per breached site: whether a password there needs changing (Watchtower's verdict), as the page's tally counts it.
  const breachedSites = new Map<string, boolean>();
  for (const login of [...unchanged, ...changed, ...rehashed].map((entry) => entry.login).concat(fresh)) {
    const breaches = context.breaches.at(login.site);
    if (login.site === null || breaches.length === 0) continue;
    const toChange = breaches.some((breach) => verdictOf(breach.breachDate, login.passwordChangedAt) !== 'changed-since');
    breachedSites.set(login.site, (breachedSites.get(login.site) ?? false) || toChange);
  }
  const toChange = [...breachedSites.values()].filter(Boolean).length;
  return {
    write: { format: context.format, keyCheck: context.hash.keyCheck, importedAt: context.importedAt, skipped: context.skipped, added, unchanged, changed, rehashed },
    passwords,
    breachedSites: toChange,
    breachedSitesChangedSince: breachedSites.size - toChange,
  };
}
