// axe-core in the app's page. The page's Content-Security-Policy (script-src 'self') would
// refuse a script tag with inline content; `page.evaluate` runs through the DevTools protocol,
// which CSP does not govern, so the app keeps its real policy while it is audited.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../tools/browserApp.ts';

const AXE_SOURCE = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  targets: string[];
}

interface AxeResult {
  violations: { id: string; impact: AxeFinding['impact']; help: string; nodes: { target: unknown[] }[] }[];
}

/** Every axe-core violation on the page as it is now (WCAG 2.x A and AA plus best practices). */
export async function runAxe(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.map(String).join(' ')),
    }));
  });
}
