import { createHash } from 'node:crypto';
import type { Disposable } from '../../shared/base/lifecycle.ts';
import { DETAILS_PATH } from './detailsFeed.ts';
import type { LocationMirror } from './mirror.ts';
import type { DbValue } from './tree.ts';

/** The version of the details feed: `current()` is read by every breach list (`breach-catalog-version`). */
export interface DetailsFeedVersion extends Disposable {
  current(): string;
}

/**
 * The version of the details feed (`breach-catalog-version`, shared/api/checks.ts): a digest of
 * its content, not a counter, so instances sharing a database name the same content alike and
 * one that started later never reuses a token for older content. Keys are digested in sorted
 * order: an instance's own write adds a key at the end of its copy, another instance re-reads the
 * location in the database's key order, and the same content must give the same version. Worked out at the first answer
 * after the feed changed and kept until it changes again: the breach list reads a string.
 *
 * Taken from the reader the search index uses, which shows only what is written (PostgreSQL's
 * copy catches up after the commit): a client that sees a version and then reads the feed gets
 * that content or newer. Not the catalog's revision: the catalog is written before its details
 * (loadCatalog, the HIBP refresh, the development surface), so a list answered between the two
 * would name a revision whose details the feed does not hold yet.
 */
export function detailsFeedVersion(details: LocationMirror): DetailsFeedVersion {
  let version: string | undefined;
  const subscription = details.onDidChange(() => (version = undefined));
  return {
    current: () => (version ??= digestOf(details.get(DETAILS_PATH) ?? null)),
    dispose: () => subscription.dispose(),
  };
}

function digestOf(value: DbValue): string {
  // Every object's keys sorted (Object.fromEntries defines own properties, `__proto__` included).
  const sorted = (_key: string, node: unknown): unknown =>
    node !== null && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(
          Object.keys(node)
            .sort()
            .map((key) => [key, (node as Record<string, unknown>)[key]]),
        )
      : node;
  return createHash('sha256').update(JSON.stringify(value, sorted)).digest('base64url').slice(0, 22);
}
