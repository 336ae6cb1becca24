// A login's site and address as kept, Watchtower's rule, and the words of the notification a
// breach at a login's site gets.
import { describe, expect, it } from 'vitest';
import { newSiteBreachesNotification } from '../../../shared/ipc/index.ts';
import { NotifierPolicy } from '../../../electron/core/notifications/NotifierPolicy.ts';
import { loginAddress } from '../../../electron/core/logins/loginAddress.ts';
import { changePasswordUrl, SiteBreachIndex, verdictOf } from '../../../electron/core/logins/siteBreaches.ts';

describe('a login address', () => {
  it.each([
    ['https://www.example.co.uk/login?next=/x#frag', { site: 'example.co.uk', url: 'https://www.example.co.uk/login' }],
    ['https://user:secret@accounts.example.com:8443/a/b?token=1', { site: 'example.com', url: 'https://accounts.example.com:8443/a/b' }],
    ['HTTP://Mail.Example.ORG', { site: 'example.org', url: 'http://mail.example.org/' }],
    ['example.com/login', { site: 'example.com', url: 'https://example.com/login' }],
    ['login.example.net:8080/path', { site: 'example.net', url: 'https://login.example.net:8080/path' }],
    // The private part of the suffix list is not used: a page on a hosting platform is its platform's site (as HIBP's breach domains name it).
    ['https://someone.github.io/app', { site: 'github.io', url: 'https://someone.github.io/app' }],
    ['https://192.168.1.1/admin', { site: null, url: 'https://192.168.1.1/admin' }],
    ['https://localhost:3000/', { site: null, url: 'https://localhost:3000/' }],
    ['https://co.uk/', { site: null, url: 'https://co.uk/' }],
    ['android://hash@com.example.app/', { site: null, url: null }],
    ['ftp://files.example.com/', { site: null, url: null }],
    ['javascript:alert(1)', { site: null, url: null }],
    ['', { site: null, url: null }],
    [null, { site: null, url: null }],
    ['https://' + 'a'.repeat(3000) + '.com/', { site: null, url: null }],
    ['not a url at all', { site: null, url: null }],
  ])('%s', (raw, expected) => {
    expect(loginAddress(raw)).toEqual(expected);
  });
});

describe("Watchtower's rule", () => {
  it('says change when the password is older than the breach, changed since when newer, unknown without a date', () => {
    expect(verdictOf('2020-06-01', '2019-12-31T23:00:00Z')).toBe('change');
    expect(verdictOf('2020-06-01', '2020-06-01T12:00:00Z')).toBe('change');
    expect(verdictOf('2020-06-01', '2020-06-02T00:00:00Z')).toBe('changed-since');
    expect(verdictOf('2020-06-01', null)).toBe('unknown-date');
    expect(verdictOf('2020-06-01', 'garbage')).toBe('unknown-date');
  });

  it('links to the site’s well-known change-password address', () => {
    expect(changePasswordUrl('example.co.uk')).toBe('https://example.co.uk/.well-known/change-password');
    expect(changePasswordUrl(null)).toBeNull();
  });

  it('finds breaches by registrable domain, whatever host the catalog names', () => {
    const index = new SiteBreachIndex([
      { breachId: 'A', title: 'A', domain: 'forum.example.com', breachDate: '2020-01-01' },
      { breachId: 'B', title: 'B', domain: 'EXAMPLE.com', breachDate: '2021-01-01' },
      { breachId: 'C', title: 'C', domain: '', breachDate: '2021-01-01' },
      { breachId: 'A', title: 'A again', domain: 'other.org', breachDate: '2020-01-01' },
    ]);
    expect(index.at('example.com').map((breach) => breach.breachId)).toEqual(['A', 'B']);
    expect(index.at('other.org')).toEqual([]);
    expect(index.at(null)).toEqual([]);
  });
});

describe('the notification of a breach at a site', () => {
  const one = { breachId: 'Shopwise', title: 'Shopwise', site: 'shopwise-test.com', breachDate: '2024-05-20' };

  it('names the site and says what to do', () => {
    expect(newSiteBreachesNotification([one])).toEqual({
      kind: 'new-breach',
      title: 'New breach at shopwise-test.com',
      body: 'Shopwise (2024-05-20): you have an account at shopwise-test.com. Change your password there if it was set before the breach.',
      breachId: 'Shopwise',
    });
    expect(newSiteBreachesNotification([one, { ...one, breachId: 'Other', site: 'other-test.org' }])).toMatchObject({
      title: '2 new breaches at your sites',
      body: expect.stringContaining('shopwise-test.com and other-test.org'),
    });
    expect(newSiteBreachesNotification([])).toBeUndefined();
  });

  it('follows the same choices as a new breach of an address', () => {
    const shown: unknown[] = [];
    const choices = { enabled: true, newBreaches: true, demo: false };
    const policy = new NotifierPolicy({
      show: (notification) => shown.push(notification),
      enabled: () => choices.enabled,
      newBreachesEnabled: () => choices.newBreaches,
      demoData: () => choices.demo,
    });
    policy.siteBreaches([one]);
    expect(shown).toHaveLength(1);
    choices.newBreaches = false;
    policy.siteBreaches([one]);
    choices.newBreaches = true;
    choices.demo = true;
    policy.siteBreaches([one]);
    choices.demo = false;
    choices.enabled = false;
    policy.siteBreaches([one]);
    choices.enabled = true;
    policy.setPaused(true);
    policy.siteBreaches([one]);
    expect(shown).toHaveLength(1);
  });
});
