// Regenerates resources/demo-catalog.json. `--check` only compares, exiting 1 when the
// committed file is stale, so CI can catch a generator change without a regenerated file.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { generateDemoCatalog } from './demoCatalog.ts';
import { DEMO_CATALOG_FILE, formatCatalogJson } from './demoCatalogFile.ts';

const text = formatCatalogJson(generateDemoCatalog());
const shown = relative(process.cwd(), DEMO_CATALOG_FILE);

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(DEMO_CATALOG_FILE, 'utf8');
  } catch {
    // A missing file is simply stale.
  }
  if (current !== text) {
    console.error(`${shown} is stale; run: node server/catalog/writeDemoCatalog.ts`);
    process.exit(1);
  }
  console.log(`${shown} is up to date`);
} else {
  writeFileSync(DEMO_CATALOG_FILE, text);
  console.log(`wrote ${shown}`);
}
