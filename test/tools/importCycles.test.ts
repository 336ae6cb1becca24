// No import cycles (tools/eslint/cycles.js, `local/no-cycles` in eslint.config.js): the rule on
// small trees whose other files come from a map, and the whole source tree walked with the same
// reader of import lines, so a cycle fails `npm test` as well as `npx eslint .`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { createCyclesRule, cyclesIn, importsOf } from '../../tools/eslint/cycles.js';

RuleTester.describe = describe;
RuleTester.it = it;

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_FOLDERS = ['shared', 'engine', 'electron', 'renderer', 'server', 'tools'];

describe('the import-line reader and the cycle finder', () => {
  it('finds a cycle, a self-import and none in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(cyclesIn(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('reads static imports and re-exports (type-only included), not packages nor dynamic import()', () => {
    const lines = "import { x } from './x.ts';\nimport type {\n  Y,\n} from '../y.ts';\nexport * from './z.ts';\nimport 'zod';\nconst lazy = () => import('./lazy.ts');\n";
    expect(importsOf('/p/q/file.ts', lines)).toEqual(['/p/q/x.ts', '/p/y.ts', '/p/q/z.ts']);
  });
});

// The dataEvents ↔ detail cycle the renderer had, as the rule sees it from either side.
const root = '/project';
const at = (file: string) => path.join(root, file);
const onDisk: Record<string, string[]> = {
  [at('renderer/state/detail.ts')]: [at('renderer/state/dataEvents.ts'), at('renderer/lib/core.ts')],
  [at('renderer/state/dataEvents.ts')]: [at('renderer/state/breaches.ts'), at('renderer/state/detail.ts')],
  [at('renderer/state/breaches.ts')]: [at('renderer/lib/core.ts')],
  [at('renderer/state/refresh.ts')]: [at('renderer/state/breaches.ts'), at('renderer/state/detail.ts')],
  [at('renderer/lib/core.ts')]: [],
};
const rule = createCyclesRule((file) => onDisk[file]);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' } });

tester.run('local/no-cycles', rule, {
  valid: [
    // dataEvents as it is now: it imports no store, so detail may import it.
    {
      filename: at('renderer/state/dataEvents.ts'),
      code: "import { Emitter } from '../../shared/base/Emitter.ts'; import type { DataChange } from '../../shared/ipc/events.ts';",
      options: [{ root }],
    },
    { filename: at('renderer/state/connect.ts'), code: "import { refreshFor } from './refresh.ts'; import { onDataChanged } from './dataEvents.ts';", options: [{ root }] },
    // Lazy code is split off with import(): not a cycle of the module graph.
    { filename: at('renderer/lib/core.ts'), code: "const detail = () => import('../state/detail.ts');", options: [{ root }] },
  ],
  invalid: [
    {
      filename: at('renderer/state/detail.ts'),
      code: "import { beginOwnChange } from './dataEvents.ts';\nimport { invoke } from '../lib/core.ts';",
      options: [{ root }],
      errors: [{ messageId: 'cycle', data: { chain: 'renderer/state/detail.ts → renderer/state/dataEvents.ts → renderer/state/detail.ts' } }],
    },
    {
      // Type-only imports count, and the chain shown is the shortest way back.
      filename: at('renderer/lib/core.ts'),
      code: "import type { Detail } from '../state/refresh.ts';",
      options: [{ root }],
      errors: [{ messageId: 'cycle', data: { chain: 'renderer/lib/core.ts → renderer/state/refresh.ts → renderer/state/breaches.ts → renderer/lib/core.ts' } }],
    },
    { filename: at('renderer/state/breaches.ts'), code: "export * from './breaches.ts';", options: [{ root }], errors: [{ messageId: 'cycle' }] },
  ],
});

describe('the source tree', () => {
  it(`has no import cycle in ${SOURCE_FOLDERS.join('/, ')}/`, () => {
    const graph = new Map<string, string[]>();
    for (const folder of SOURCE_FOLDERS)
      for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })) {
        if (!entry.isFile() || !/\.(ts|tsx|js)$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
        const file = path.join(entry.parentPath, entry.name);
        if (!file.split(path.sep).includes('node_modules')) graph.set(file, importsOf(file, readFileSync(file, 'utf8')));
      }
    expect(graph.size).toBeGreaterThan(300);
    expect(cyclesIn(graph).map((members) => members.map((file) => path.relative(ROOT, file)))).toEqual([]);
  });
});
