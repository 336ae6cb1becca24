import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applySettingsChange, Settings, type SettingsChange } from '../../../shared/ipc/index.ts';

export const SETTINGS_FILE = 'settings.json';

/**
 * App-wide settings in `<dataDir>/settings.json`: validated on read (a damaged or hand-edited
 * file falls back to defaults key by key instead of stopping the app) and written atomically.
 */
export class SettingsStore {
  readonly #file: string;
  readonly #defaults: Settings;
  #current: Settings;
  /** Why the file on disk was not used as it was, for the log. */
  readonly problems: string[] = [];

  constructor(dataDir: string, defaults: Settings) {
    this.#file = path.join(dataDir, SETTINGS_FILE);
    this.#defaults = Settings.parse(defaults);
    this.#current = this.#read();
  }

  get(): Settings {
    return { ...this.#current };
  }

  /** Merges and persists a change (a `null` field goes back to its default); throws a ZodError naming the bad key. */
  update(change: SettingsChange): Settings {
    const next = applySettingsChange(this.#current, change);
    mkdirSync(path.dirname(this.#file), { recursive: true, mode: 0o700 });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    renameSync(temporary, this.#file);
    this.#current = next;
    return { ...next };
  }

  #read(): Settings {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.#file, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.problems.push(`${SETTINGS_FILE} is not readable JSON; using defaults`);
      return { ...this.#defaults };
    }
    if (typeof raw !== 'object' || raw === null) {
      this.problems.push(`${SETTINGS_FILE} is not an object; using defaults`);
      return { ...this.#defaults };
    }
    const merged: Record<string, unknown> = { ...this.#defaults };
    for (const [key, value] of Object.entries(raw)) {
      const field = Settings.shape[key as keyof Settings];
      if (!field) {
        this.problems.push(`${SETTINGS_FILE}: "${key}" is not a setting; ignored`);
        continue;
      }
      const parsed = field.safeParse(value);
      if (parsed.success) merged[key] = parsed.data;
      else this.problems.push(`${SETTINGS_FILE}: "${key}" ${parsed.error.issues[0]?.message ?? 'is invalid'}; using the default`);
    }
    return Settings.parse(merged);
  }
}
