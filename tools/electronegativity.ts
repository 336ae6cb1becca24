// Electronegativity over electron/: fails on any HIGH or MEDIUM finding, and on any file it could
// not parse (a file it cannot read is a file it did not check). Lower findings are listed.
//   node tools/electronegativity.ts [folder]
import { createRequire } from 'node:module';
import path from 'node:path';

interface Finding {
  file: string;
  id: string;
  description: string;
  location: { line: number; column: number };
  severity: { name: string };
  confidence: { name: string };
  manualReview?: boolean;
}

interface Result {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Finding[];
}

const FAILING = new Set(['HIGH', 'MEDIUM']);
const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/**
 * The tool downloads fresh translations on every run. CI has no network and the bundled English
 * strings are complete, so the download is answered "not found" without leaving the machine; any
 * other download fails as it would offline.
 */
function stayOffline(): void {
  const i18n = require.resolve('@doyensec/electronegativity/dist/locales/i18n.js');
  const got = createRequire(i18n).resolve('got');
  const offline = (url: string) => (String(url).includes('i18n') ? Promise.resolve({ statusCode: 404, body: '' }) : Promise.reject(new Error('offline')));
  require.cache[got] = { id: got, filename: got, loaded: true, exports: offline } as unknown as NodeJS.Module;
}

/**
 * CSP_GLOBAL_CHECK finds a policy only in HTML meta tags and webRequest header hooks; ours is a
 * header of every app:// response (electron/main/protocol.ts), which it cannot see.
 * test/electron/protocol.test.ts runs the same CSP evaluator over that policy instead.
 *
 * AVAILABLE_SECURITY_FIXES compares the Electron version in a package.json with GitHub's release
 * list: electron/ has no package.json and CI no network. Keeping Electron current is the
 * dependency updates' job.
 */
const EXCLUDED = ['AvailableSecurityFixesGlobalCheck', 'CSPGlobalCheck'];

export async function scan(input: string): Promise<Result> {
  stayOffline();
  const run = require('@doyensec/electronegativity') as (options: Record<string, unknown>) => Promise<Result>;
  const electronVersion = (require('electron/package.json') as { version: string }).version;
  return run({ input, isRelative: true, electronVersionOverride: electronVersion, excludeFromScan: EXCLUDED, parserPlugins: [] });
}

function line(finding: Finding): string {
  return `${finding.severity.name.padEnd(13)} ${finding.id}  ${finding.file}:${finding.location.line}:${finding.location.column}  ${finding.description}`;
}

async function main(): Promise<void> {
  const input = path.resolve(root, process.argv[2] ?? 'electron');
  const result = await scan(input);
  const failing = result.issues.filter((issue) => FAILING.has(issue.severity.name));
  const unreadable = result.errors.filter((error) => !error.tolerable);
  console.log(`electronegativity: ${result.atomicChecks} atomic and ${result.globalChecks} global checks over ${path.relative(root, input) || '.'}`);
  for (const issue of result.issues) console.log(`  ${line(issue)}`);
  for (const error of unreadable) console.log(`  UNPARSED      ${error.file}: ${error.message}`);
  const counts = new Map<string, number>();
  for (const issue of result.issues) counts.set(issue.severity.name, (counts.get(issue.severity.name) ?? 0) + 1);
  const summary = [...counts].map(([name, count]) => `${count} ${name.toLowerCase()}`).join(', ') || 'no findings';
  console.log(`${summary}; ${unreadable.length} unparsed file(s)`);
  if (failing.length > 0 || unreadable.length > 0) {
    console.error(`failed: ${failing.length} high/medium finding(s), ${unreadable.length} unparsed file(s)`);
    process.exitCode = 1;
  }
}

if (import.meta.main) await main();
