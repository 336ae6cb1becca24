import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsChange } from '../../../shared/ipc/index.ts';
import { SETTINGS_FILE, SettingsStore } from '../../../electron/core/settings/SettingsStore.ts';
import { DEFAULT_SETTINGS } from '../../support/settings.ts';

describe('SettingsStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts from defaults and persists changes across instances', () => {
    expect(new SettingsStore(dir, DEFAULT_SETTINGS).get()).toEqual(DEFAULT_SETTINGS);
    new SettingsStore(dir, DEFAULT_SETTINGS).update({ theme: 'dark', syncIntervalMinutes: 15 });
    expect(new SettingsStore(dir, DEFAULT_SETTINGS).get()).toMatchObject({ theme: 'dark', syncIntervalMinutes: 15, notifications: true });
    expect(JSON.parse(readFileSync(path.join(dir, SETTINGS_FILE), 'utf8')).theme).toBe('dark');
  });

  it('a null field goes back to its default; a required field cannot be cleared', () => {
    const store = new SettingsStore(dir, DEFAULT_SETTINGS);
    store.update({ feedUrl: 'https://feed.example.com/db', signUpUrl: 'https://monitor.example.com/signup' });
    expect(store.update({ feedUrl: null })).not.toHaveProperty('feedUrl');
    expect(new SettingsStore(dir, DEFAULT_SETTINGS).get()).toEqual({ ...DEFAULT_SETTINGS, signUpUrl: 'https://monitor.example.com/signup' });
    expect(() => store.update({ serviceUrl: null } as never)).toThrow(/serviceUrl/);
    expect(SettingsChange.safeParse({ serviceUrl: null }).success).toBe(false);
    expect(SettingsChange.safeParse({ signUpUrl: null }).success).toBe(true);
  });

  it('refuses an invalid change, naming the key, and keeps the old value', () => {
    const store = new SettingsStore(dir, DEFAULT_SETTINGS);
    expect(() => store.update({ syncIntervalMinutes: 1 })).toThrow(/syncIntervalMinutes|>=5|too small/i);
    expect(store.get().syncIntervalMinutes).toBe(30);
  });

  it('keeps the good keys of a damaged file and reports the bad ones', () => {
    writeFileSync(path.join(dir, SETTINGS_FILE), JSON.stringify({ theme: 'dark', syncIntervalMinutes: 'often', mystery: 1 }));
    const store = new SettingsStore(dir, DEFAULT_SETTINGS);
    expect(store.get()).toMatchObject({ theme: 'dark', syncIntervalMinutes: 30 });
    expect(store.problems.join('\n')).toMatch(/syncIntervalMinutes/);
    expect(store.problems.join('\n')).toMatch(/mystery/);
  });

  it('falls back to defaults when the file is not JSON', () => {
    writeFileSync(path.join(dir, SETTINGS_FILE), '{not json');
    const store = new SettingsStore(dir, DEFAULT_SETTINGS);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.problems).toHaveLength(1);
  });
});
