import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_EXTRA_EMAILS, extraEmailsOf, parseCommandLine } from '../../server/config.ts';

describe('service command line', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has the documented defaults', () => {
    const { command, config } = parseCommandLine([], {});
    expect(command).toBe('serve');
    expect(config).toMatchObject({ port: 6060, host: '127.0.0.1', dev: false, audience: 'urn:breach-monitor:api' });
  });

  it('gives the demo extras (alice’s and bob’s other addresses) only with demo data, never on real data', () => {
    const KEY = '0123456789abcdef0123456789abcdef';
    const extras = (args: string[]) => extraEmailsOf(parseCommandLine(['--data', dir, ...args], {}).config);
    expect(extras(['--demo'])).toEqual(DEFAULT_EXTRA_EMAILS);
    expect(extras(['--dev'])).toEqual(DEFAULT_EXTRA_EMAILS);
    // Real data: a key, with or without the development surface, or no source at all.
    expect(extras(['--hibp-api-key', KEY])).toEqual({});
    expect(extras(['--dev', '--hibp-api-key', KEY])).toEqual({});
    expect(extras([])).toEqual({});
    expect(extras(['--owner'])).toEqual({});
    // The operator's own file applies whatever the data.
    const file = path.join(dir, 'extras.json');
    writeFileSync(file, JSON.stringify({ dana: ['dana@example.org'] }));
    expect(extras(['--dev', '--hibp-api-key', KEY, '--extra-emails', file])).toEqual({ dana: ['dana@example.org'] });
    expect(extras(['--demo', '--extra-emails', file])).toEqual({ dana: ['dana@example.org'] });
  });

  it('takes flags over environment variables', () => {
    const { config } = parseCommandLine(['--port', '7000', '--dev'], { BREACH_SERVICE_PORT: '8000', BREACH_SERVICE_DATA: dir });
    expect(config).toMatchObject({ port: 7000, dev: true, dataDir: dir });
  });

  it('reads extra monitored emails from a file', () => {
    const file = path.join(dir, 'extras.json');
    writeFileSync(file, JSON.stringify({ dana: ['dana@example.org', 'd.work@example.org'] }));
    expect(parseCommandLine(['--extra-emails', file], {}).config.extraEmails).toEqual({ dana: ['dana@example.org', 'd.work@example.org'] });
  });

  it.each([
    [['--port', 'six'], /port: must be a whole number/],
    [['--port', '70000'], /port/],
    [['--issuer', 'not a url'], /issuer/],
    [['--bogus'], /bogus/],
    [['token', 'extra'], /unknown command|Unexpected argument/i],
  ])('refuses %j with a message naming the key', (argv, message) => {
    expect(() => parseCommandLine(argv, {})).toThrow(ConfigError);
    expect(() => parseCommandLine(argv, {})).toThrow(message);
  });

  it('names the file and the key of bad extra emails', () => {
    const file = path.join(dir, 'extras.json');
    writeFileSync(file, JSON.stringify({ dana: ['not-an-email'] }));
    expect(() => parseCommandLine(['--extra-emails', file], {})).toThrow(/extraEmails\.dana\.0/);
    expect(() => parseCommandLine(['--extra-emails', path.join(dir, 'missing.json')], {})).toThrow(/extraEmails: cannot read/);
  });
});

describe('database URL', () => {
  it('takes --database-url over BREACH_SERVICE_DATABASE_URL, and none means SQLite', () => {
    expect(parseCommandLine(['--database-url', 'postgres://a@db/x'], { BREACH_SERVICE_DATABASE_URL: 'postgresql://b@db/y' }).config.databaseUrl).toBe('postgres://a@db/x');
    expect(parseCommandLine([], { BREACH_SERVICE_DATABASE_URL: 'postgresql://b@db/y' }).config.databaseUrl).toBe('postgresql://b@db/y');
    expect(parseCommandLine([], {}).config.databaseUrl).toBeUndefined();
    expect(parseCommandLine([], {}).config.databasePoolSize).toBe(10);
  });

  it('refuses a URL that is not PostgreSQL, and a pool size out of range, naming the key', () => {
    expect(() => parseCommandLine(['--database-url', 'mysql://db/x'], {})).toThrow(/databaseUrl.*postgres:\/\//);
    expect(() => parseCommandLine(['--database-pool-size', '0'], {})).toThrow(/databasePoolSize/);
  });
});
