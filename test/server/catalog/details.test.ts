import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { Breach } from '../../../shared/api/index.ts';
import { BreachDetails, CatalogDetails, isHiddenByDefault } from '../../../shared/catalog/index.ts';
import { startService } from '../../../server/app.ts';
import { DEMO_LOGO_PREFIX, demoBreachDetails, demoLogoSvg } from '../../../server/catalog/demoDetails.ts';
import { HibpBreachRecord, hibpRecordToDetails } from '../../../server/catalog/hibp.ts';
import { compareCatalogs, describeCatalogLoad, loadCatalogFile, loadDemoCatalog } from '../../../server/catalog/source.ts';
import { createLogger } from '../../../server/log.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../../../../shared/fixtures/hibp/breaches.json');
const fixtureMissing = !existsSync(FIXTURE);
const DEMO = Breach.array().parse(JSON.parse(readFileSync(new URL('../../../resources/demo-catalog.json', import.meta.url), 'utf8')));

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-details-'));
  dirs.push(dir);
  return dir;
}

function hibp(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Name: 'Adobe',
    Title: 'Adobe',
    Domain: 'adobe.com',
    BreachDate: '2013-10-04',
    AddedDate: '2013-12-04T00:00:00Z',
    ModifiedDate: '2022-05-15T23:52:49Z',
    PwnCount: 152445165,
    Description: 'In October 2013, <a href="https://example.org/">153 million</a> accounts...',
    LogoPath: 'https://haveibeenpwned.com/Content/Images/PwnedLogos/Adobe.png',
    DataClasses: ['Password hints', 'Email addresses'],
    IsVerified: true,
    IsFabricated: false,
    IsSensitive: false,
    IsRetired: false,
    IsSpamList: false,
    IsMalware: false,
    IsSubscriptionFree: false,
    ...overrides,
  };
}

describe('hibpRecordToDetails', () => {
  it("keeps Have I Been Pwned's fields in camelCase", () => {
    expect(hibpRecordToDetails(HibpBreachRecord.parse(hibp()))).toEqual({
      title: 'Adobe',
      domain: 'adobe.com',
      breachDate: '2013-10-04',
      addedDate: '2013-12-04T00:00:00Z',
      modifiedDate: '2022-05-15T23:52:00Z',
      pwnCount: 152445165,
      description: 'In October 2013, <a href="https://example.org/">153 million</a> accounts...',
      logoPath: 'https://haveibeenpwned.com/Content/Images/PwnedLogos/Adobe.png',
      dataClasses: ['Email addresses', 'Password hints'],
      isVerified: true,
      isFabricated: false,
      isSensitive: false,
      isRetired: false,
      isSpamList: false,
      isMalware: false,
      isStealerLog: false,
    });
  });

  it('fills fields an older snapshot lacks, and the title from the name', () => {
    const details = hibpRecordToDetails(
      HibpBreachRecord.parse({ ...hibp({ Title: '  ' }), PwnCount: undefined, Description: undefined, LogoPath: undefined, IsVerified: undefined, IsMalware: undefined }),
    );
    expect(details).toMatchObject({ title: 'Adobe', pwnCount: 0, description: '', logoPath: '', isVerified: false, isMalware: false, isStealerLog: false });
  });

  it('refuses a negative count, naming the record and field', () => {
    const file = path.join(tempDir(), 'bad.json');
    writeFileSync(file, JSON.stringify([hibp(), hibp({ Name: 'Other', PwnCount: -1 })]));
    expect(() => loadCatalogFile(file)).toThrow(/record 1 \("Other"\), field "PwnCount"/);
  });
});

describe.skipIf(fixtureMissing)('the real Have I Been Pwned catalog', () => {
  it('keeps details of every record and says which records the alert catalog leaves out and why', () => {
    const source = loadCatalogFile(FIXTURE);
    expect(source.total).toBe(834);
    expect(Object.keys(source.details)).toHaveLength(834);
    expect(CatalogDetails.safeParse(source.details).success).toBe(true);
    expect(source.breaches).toHaveLength(813);
    expect(source.skipped).toHaveLength(21);
    expect(source.skipped.filter((s) => s.reason === 'spamList')).toHaveLength(16);
    for (const { id } of source.skipped) expect(isHiddenByDefault(source.details[id]!)).toBe(true);
    expect(source.details['000webhost']).toMatchObject({ title: '000webhost', pwnCount: 14936670, isVerified: true });
    const lines = describeCatalogLoad(compareCatalogs([], source));
    expect(lines[0]).toContain('813 of 834 records');
    expect(lines[1]).toMatch(/^left out 21 of 834 records: .*16 a spam list \(/);
  });
});

describe('demo catalog details', () => {
  it('are deterministic, valid, and name only the demo’s fictional companies', () => {
    const source = loadDemoCatalog();
    expect(Object.keys(source.details)).toEqual(DEMO.map((b) => b.id));
    for (const breach of DEMO) {
      const details = source.details[breach.id]!;
      expect(BreachDetails.parse(details)).toEqual(details);
      expect(demoBreachDetails(breach)).toEqual(details);
      expect(details.title).toBe(breach.id);
      expect(details.description.replaceAll(' ', '')).toContain(breach.id.replace(/\d+$/, ''));
      expect(details.logoPath).toBe(`${DEMO_LOGO_PREFIX}${encodeURIComponent(breach.id)}.svg`);
      expect(details).toMatchObject({ domain: breach.domain, breachDate: breach.breachDate, dataClasses: breach.dataClasses, isSensitive: breach.isSensitive, isRetired: false });
      // Every link and domain is a reserved example name (RFC 2606), never a site someone may own.
      for (const [, host] of details.description.matchAll(/href="https?:\/\/([^/"]+)/g)) expect(host).toMatch(/\.example$/);
      if (details.domain !== '') expect(details.domain).toMatch(/\.example$/);
    }
    expect(DEMO.filter((b) => b.domain !== '').every((b) => source.details[b.id]!.description.includes(`href="https://${b.domain}/"`))).toBe(true);
    // None hidden by default: the app's demo list must match the service's.
    expect(DEMO.filter((b) => isHiddenByDefault(source.details[b.id]!))).toEqual([]);
    const flagged = DEMO.filter((b) => source.details[b.id]!.isMalware || source.details[b.id]!.isStealerLog);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.length).toBeLessThan(DEMO.length / 10);
  });

  it('draws logos as SVG with initials only', () => {
    expect(demoLogoSvg('AmberBank2019')).toMatch(/^<svg [^>]*>.*>AB<\/text><\/svg>$/);
    expect(demoLogoSvg('<script>x')).not.toContain('<script');
  });
});

describe('the service at start', () => {
  it('reports breaches a new catalog no longer has, keeps resolutions, and rewrites the details feed', async () => {
    const dataDir = tempDir();
    const first = path.join(dataDir, 'first.json');
    const second = path.join(dataDir, 'second.json');
    writeFileSync(first, JSON.stringify([hibp(), hibp({ Name: 'Gone', Title: 'Gone Inc', Domain: 'gone.example' }), hibp({ Name: 'Spam', IsSpamList: true })]));
    writeFileSync(second, JSON.stringify([hibp({ Title: 'Adobe (updated)' })]));
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(String(chunk)), done()) });
    const logger = createLogger({ level: 'info', destination });

    const one = await startService({ port: 0, dataDir, logLevel: 'silent', catalogFile: first }, { logger });
    expect(one.catalogReport).toMatchObject({ total: 3, kept: 2, skipped: [{ id: 'Spam', reason: 'spamList' }], removed: [] });
    await one.store.setExposures('a@example.com', ['Gone']);
    await one.store.applyResolutionChanges([{ email: 'a@example.com', breachId: 'Gone', dataClass: 'Email addresses', resolved: true }], '2026-01-01T00:00:00Z');
    expect(Object.keys((await one.rtdb.get(['catalog', 'breaches'])) as object)).toEqual(['Adobe', 'Gone', 'Spam']);
    await one.close();

    const two = await startService({ port: 0, dataDir, logLevel: 'silent', catalogFile: second }, { logger });
    try {
      expect(two.catalogReport).toMatchObject({ kept: 1, removed: ['Gone'], added: 0 });
      expect((await two.store.getExposures(['a@example.com'])).get('a@example.com')).toEqual(['Gone']);
      expect(await two.store.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Gone', dataClass: 'Email addresses', resolvedAt: '2026-01-01T00:00:00Z' }]);
      expect(await two.rtdb.get(['catalog', 'breaches'])).toEqual({ Adobe: expect.objectContaining({ title: 'Adobe (updated)' }) });
      expect(lines.join('')).toContain('1 breach is no longer in the catalog: Gone; they stay in the accounts exposed to them, marked removed, with their resolutions');
      expect(lines.join('')).toContain('left out 1 of 3 records: 1 a spam list (Spam)');
    } finally {
      await two.close();
    }
  });

  it('serves the demo catalog details and its logos', async () => {
    const service = await startService({ port: 0, dataDir: tempDir(), logLevel: 'silent', demo: true });
    try {
      const details = (await service.rtdb.get(['catalog', 'breaches'])) as Record<string, BreachDetails>;
      expect(Object.keys(details)).toHaveLength(DEMO.length);
      const logo = await fetch(service.url + details[DEMO[0]!.id]!.logoPath);
      expect(logo.status).toBe(200);
      expect(logo.headers.get('content-type')).toBe('image/svg+xml');
      expect(await logo.text()).toBe(demoLogoSvg(DEMO[0]!.id));
      expect((await fetch(`${service.url}${DEMO_LOGO_PREFIX}NoSuchBreach.svg`)).status).toBe(404);
    } finally {
      await service.close();
    }
  });
});
