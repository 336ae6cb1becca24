// The breach-data flags: where exposures come from (--demo, --dev, --hibp-api-key), and the key
// never appearing in an error or the start-up banner beyond its last 4 characters.
import { describe, expect, it } from 'vitest';
import { breachDataSource, ConfigError, parseCommandLine } from '../../../server/config.ts';
import { describeHibpKey } from '../../../server/hibp/constants.ts';
import { KEY } from '../../support/hibpService.ts';

const DATA = { BREACH_SERVICE_DATA: '/tmp/unused-breach-service' };

describe('breach-data configuration', () => {
  it('defaults to HIBP API v3, a 6-hour catalog refresh, and no source at all', () => {
    const { config } = parseCommandLine([], DATA);
    expect(config).toMatchObject({ hibpUrl: 'https://haveibeenpwned.com/api/v3', hibpDomains: [], catalogRefreshSec: 21_600, hibpTimeoutMs: 10_000 });
    expect(config.hibpApiKey).toBeUndefined();
    expect(breachDataSource(config)).toBe('none');
  });

  it('takes the key, URL and domains from flags or the environment', () => {
    const flags = parseCommandLine(['--hibp-api-key', KEY, '--hibp-url', 'http://127.0.0.1:9/api/v3', '--hibp-domain', 'Acme.Example', '--hibp-domain', 'acme.test'], DATA).config;
    expect(flags).toMatchObject({ hibpApiKey: KEY, hibpUrl: 'http://127.0.0.1:9/api/v3', hibpDomains: ['acme.example', 'acme.test'] });
    expect(breachDataSource(flags)).toBe('hibp');
    const env = parseCommandLine([], {
      ...DATA,
      BREACH_SERVICE_HIBP_API_KEY: KEY,
      BREACH_SERVICE_HIBP_URL: 'https://proxy.example/api/v3',
      BREACH_SERVICE_HIBP_DOMAINS: 'acme.example,acme.test',
    }).config;
    expect(env).toMatchObject({ hibpApiKey: KEY, hibpUrl: 'https://proxy.example/api/v3', hibpDomains: ['acme.example', 'acme.test'] });
  });

  it('invents exposures only with --demo, or --dev without a key', () => {
    expect(breachDataSource(parseCommandLine(['--demo'], DATA).config)).toBe('demo');
    expect(breachDataSource(parseCommandLine(['--dev'], DATA).config)).toBe('demo');
    expect(breachDataSource(parseCommandLine(['--dev', '--hibp-api-key', KEY], DATA).config)).toBe('hibp');
    expect(breachDataSource(parseCommandLine([], { ...DATA, BREACH_SERVICE_DEMO: '1' }).config)).toBe('demo');
    expect(breachDataSource(parseCommandLine(['--dev'], { ...DATA, BREACH_SERVICE_DEMO: '0' }).config)).toBe('none');
  });

  it('refuses --demo with a key, and a bad domain, without quoting the key', () => {
    const both = (() => parseCommandLine(['--demo', '--hibp-api-key', KEY], DATA)) as () => unknown;
    expect(both).toThrow(ConfigError);
    expect(both).toThrow(/--demo .* --hibp-api-key/);
    try {
      both();
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY);
    }
    expect(() => parseCommandLine(['--hibp-domain', 'not a domain', '--hibp-api-key', KEY], DATA)).toThrow(/hibpDomains\.0: must be a domain name/);
    try {
      parseCommandLine(['--hibp-domain', 'not a domain', '--hibp-api-key', KEY], DATA);
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY);
    }
  });

  it('sends the key over https only (plain http on loopback, for a local proxy or test double)', () => {
    expect(() => parseCommandLine(['--hibp-api-key', KEY, '--hibp-url', 'http://proxy.example/api/v3'], DATA)).toThrow(/hibpUrl: the HIBP API key would travel in clear to proxy\.example/);
    expect(parseCommandLine(['--hibp-api-key', KEY, '--hibp-url', 'http://127.0.0.1:8080/api/v3'], DATA).config.hibpUrl).toBe('http://127.0.0.1:8080/api/v3');
    expect(parseCommandLine(['--hibp-url', 'http://proxy.example/api/v3'], DATA).config.hibpUrl).toBe('http://proxy.example/api/v3');
  });

  it('shows a key by its last 4 characters only', () => {
    expect(describeHibpKey(KEY)).toBe('…cdef');
  });
});
