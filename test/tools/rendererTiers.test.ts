import fs from 'node:fs';
import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, expect, it } from 'vitest';
import tseslint from 'typescript-eslint';
import { RENDERER_TIERS, tiersRule } from '../../tools/eslint/layers.js';

RuleTester.describe = describe;
RuleTester.it = it;

const root = '/project';
const options = [{ root, folder: 'renderer', tiers: RENDERER_TIERS }];
const at = (file: string) => path.join(root, 'renderer', file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } } });

tester.run('local/tiers (renderer)', tiersRule, {
  valid: [
    // A feature meets the stores, the component kit, lib, shared/ and other features.
    {
      filename: at('features/graph/GraphPage.tsx'),
      code: "import { useGraph } from '../../state/graph.ts'; import { Icon } from '../../components/Icon.tsx'; import { kindOf } from '../../lib/graphAnswers.ts'; import { DemoTag } from '../checks/DemoLabel.tsx'; import { TYPE_NODES } from '../../../shared/graph/nodeIds.ts'; import { useMemo } from 'react';",
      options,
    },
    // A store reads lib: the core's port and what the pages share with it.
    { filename: at('state/passwords.ts'), code: "import { invoke } from '../lib/core.ts'; import { sha1Parts } from '../lib/pwnedHash.ts';", options },
    { filename: at('state/breaches.ts'), code: "import { firstRowsQuery } from '../lib/firstRows.ts'; import { useRoute } from './route.ts';", options },
    { filename: at('lib/early.ts'), code: "import { firstRowsQuery } from './firstRows.ts'; import { parseHash } from './urlState.ts';", options },
    {
      filename: at('App.tsx'),
      code: "import { Nav } from './features/shell/Nav.tsx'; import { useFirstRun } from './state/firstRun.ts'; import { ErrorState } from './components/States.tsx';",
      options,
    },
    { filename: at('main.tsx'), code: "import './lib/early.ts'; import { App } from './App.tsx'; import './styles/index.css';", options },
    // Outside the folder the rule does not look (the layers rule does).
    { filename: path.join(root, 'electron/core/app.ts'), code: "import { x } from '../../renderer/state/graph.ts';", options },
  ],
  invalid: [
    // The three back-up imports the tiers removed (issue 37).
    { filename: at('state/passwords.ts'), code: "import { sha1Parts } from '../features/passwords/pwnedHash.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('state/graph.ts'), code: "import { kindOf } from '../features/graph/model.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('lib/early.ts'), code: "import { firstRowsQuery } from '../state/breaches.ts';", options, errors: [{ messageId: 'upward' }] },
    // A store never draws, and a component never reaches a store.
    { filename: at('state/x.ts'), code: "import { Icon } from '../components/Icon.tsx';", options, errors: [{ message: /components is in the same tier as state/ }] },
    { filename: at('components/x.tsx'), code: "import { useChecks } from '../state/checks.ts';", options, errors: [{ message: /state is in the same tier as components/ }] },
    // Nothing below the shell imports it, nor the entry; re-exports and dynamic imports count.
    { filename: at('features/shell/Nav.tsx'), code: "import { App } from '../../App.tsx';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('App.tsx'), code: "export * from './main.tsx';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('lib/x.ts'), code: "const page = import('../features/graph/GraphPage.tsx');", options, errors: [{ messageId: 'upward' }] },
    // A folder nobody placed in a tier is refused, from either side.
    { filename: at('widgets/x.tsx'), code: "import { f } from '../lib/format.ts';", options, errors: [{ messageId: 'unlisted' }] },
    { filename: at('features/x/y.tsx'), code: "import { w } from '../../widgets/w.tsx';", options, errors: [{ message: /renderer\/widgets is in no tier: place it in the tier table of renderer/ }] },
  ],
});

describe('RENDERER_TIERS', () => {
  it('places every folder and root module of renderer/ in exactly one tier', () => {
    const renderer = path.join(import.meta.dirname, '../../renderer');
    // index.html, tsconfig.json and public/ are not modules: nothing imports them or from them.
    const units = fs
      .readdirSync(renderer, { withFileTypes: true })
      .filter((entry) => (entry.isDirectory() ? entry.name !== 'public' : /\.tsx?$/.test(entry.name)))
      .map((entry) => entry.name)
      .sort();
    const placed = RENDERER_TIERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual(units);
  });

  it('keeps the stores and the component kit in one tier, below the features', () => {
    const stores = RENDERER_TIERS.findIndex((tier) => tier.includes('state'));
    expect(RENDERER_TIERS[stores]).toContain('components');
    expect(RENDERER_TIERS[stores + 1]).toEqual(['features']);
  });
});
