/**
 * Every main screen of the built renderer in Chromium (test/support/browser.ts picks which), light and dark, against the fake
 * core: Content-Security-Policy violations, console errors, axe-core (with colour contrast,
 * which jsdom cannot check) and a screenshot of each into test-results/renderer/.
 *
 *   npx vite build --config renderer/vite.config.ts && node test/renderer/node/smoke.ts
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchResolvedBrowser } from '../../support/browser.ts';
import { hibpFakeCore } from './hibpFake.ts';
import { startPreview } from './previewServer.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const outDir = path.join(root, 'test-results/renderer');
const fixture = path.resolve(root, '../shared/fixtures/hibp/breaches.json');

const core = hibpFakeCore(fixture);
// A few queued and failed changes so those states show.
core.refuse = (intent) => (intent.breachId === 'Adobe' && intent.dataClass === 'Passwords' ? 'Data class "Passwords" is not part of this breach for this address' : undefined);
await core.invoke('resolutions-set', { breachId: 'Adobe', dataClasses: ['Passwords'], resolved: true });
await core.invoke('sync-now', {});
await core.invoke('resolutions-set', { breachId: 'Adobe', dataClasses: ['Usernames'], resolved: true });

const preview = await startPreview(core, path.join(root, 'out/renderer'));
const browser = await launchResolvedBrowser();
const axeSource = await readFile(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
await mkdir(outDir, { recursive: true });

const screens = [
  { name: 'overview', hash: '#/overview' },
  { name: 'breaches', hash: '#/breaches' },
  { name: 'detail', hash: '#/breaches/Adobe?includeSensitive=true' },
  { name: 'filters', hash: '#/breaches?unresolvedDataClasses=Passwords&dataClasses=Phone+numbers' },
  { name: 'settings', hash: '#/settings' },
  { name: 'fix', hash: '#/fix' },
  { name: 'fix-breach', hash: '#/fix/Adobe' },
  { name: 'reports', hash: '#/reports' },
];

let problems = 0;
for (const theme of ['light', 'dark'] as const) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: theme });
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  await page.goto(preview.origin + '/');
  await page.evaluate((secret) => sessionStorage.setItem('monitor-secret', secret), preview.secret);
  for (const screen of screens) {
    await page.goto(`${preview.origin}/app/${screen.hash}`);
    await page.evaluate(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    await settle(page);
    await page.screenshot({ path: path.join(outDir, `${screen.name}-${theme}.png`) });
    problems += await audit(page, `${screen.name} (${theme})`);
  }
  // The welcome screen: signed out.
  core.auth = { state: 'signed-out', remembered: true };
  await page.goto(`${preview.origin}/app/#/overview`);
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.screenshot({ path: path.join(outDir, `welcome-${theme}.png`) });
  problems += await audit(page, `welcome (${theme})`);
  core.auth = { state: 'signed-in', remembered: true, account: { accountId: 'acc-1', issuer: 'http://127.0.0.1:6060/oidc', email: 'alice@example.com' } };
  if (messages.length > 0) {
    problems += messages.length;
    console.error(`${theme}: console\n  ${messages.join('\n  ')}`);
  }
  await context.close();
}

await browser.close();
await preview.close();
console.log(problems === 0 ? `ok: screenshots in ${path.relative(root, outDir)}/` : `${problems} problem(s)`);
process.exitCode = problems === 0 ? 0 : 1;

async function settle(page: Page): Promise<void> {
  // Not "networkidle": the event stream stays open by design.
  await page.locator('main').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && !document.querySelector('.skeleton'), undefined, { timeout: 10_000 }).catch(() => {});
  await page.waitForTimeout(150);
}

async function audit(page: Page, label: string): Promise<number> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of violations) console.log(`${label}: ${v.impact} ${v.id} — ${v.help}: ${v.targets.join(' | ')}`);
  return bad.length;
}
