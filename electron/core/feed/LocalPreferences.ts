import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Preferences } from '../../../shared/catalog/index.ts';

/**
 * One person's preferences as this machine last knew them; `pending` until the database has them.
 * `base` is what the database held when the pending change was made (absent in copies written
 * before it was kept), so the change can be merged with what another device wrote meanwhile.
 */
const LocalCopy = z.object({ preferences: Preferences, pending: z.boolean(), base: Preferences.optional() });
export type LocalCopy = z.infer<typeof LocalCopy>;

/**
 * This machine's copy of each person's shared preferences, so they apply offline and a change
 * made offline is written back once the database answers again. One small JSON file per person
 * (named by a hash of the subject: no identifier in a file name), replaced atomically.
 */
export class LocalPreferences {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  read(subject: string): LocalCopy | undefined {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.#file(subject), 'utf8'));
    } catch {
      return undefined;
    }
    const parsed = LocalCopy.safeParse(raw);
    // A copy another version wrote in a shape this one does not know is as good as none.
    return parsed.success ? parsed.data : undefined;
  }

  write(subject: string, copy: LocalCopy): void {
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const file = this.#file(subject);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(LocalCopy.parse(copy)) + '\n', { mode: 0o600 });
    renameSync(temporary, file);
  }

  #file(subject: string): string {
    return path.join(this.#dir, `${createHash('sha256').update(subject).digest('hex').slice(0, 32)}.json`);
  }
}
