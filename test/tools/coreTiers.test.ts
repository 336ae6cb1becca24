import fs from 'node:fs';
import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, expect, it } from 'vitest';
import tseslint from 'typescript-eslint';
import { CORE_TIERS, tiersRule } from '../../tools/eslint/layers.js';

RuleTester.describe = describe;
RuleTester.it = it;

const root = '/project';
const options = [{ root, folder: 'electron/core' }];
const at = (file: string) => path.join(root, 'electron/core', file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' } });

tester.run('local/tiers', tiersRule, {
  valid: [
    // The handlers tier joins features: it may import any tier below it.
    {
      filename: at('handlers/resolutionHandlers.ts'),
      code: "import { h } from './combineHandlers.ts'; import { s } from '../session/CurrentSession.ts'; import { v } from '../views/breachViews.ts'; import { c } from '../status/DataChanges.ts'; import { q } from '../queries/localQueries.ts';",
      options,
    },
    // A feature imports its own folder, lower tiers, shared/, engine/ and packages.
    {
      filename: at('sync/Puller.ts'),
      code: "import { d } from './diff.ts'; import type { W } from '../db/Interface.ts'; import { c } from '../api/BreachAlertClient.ts'; import { s } from '../../../shared/api/index.ts'; import Database from 'better-sqlite3';",
      options,
    },
    { filename: at('views/NewBreachMarks.ts'), code: "import type { SyncReport } from '../sync/SyncScheduler.ts';", options },
    { filename: at('graph/NodeQueryClient.ts'), code: "import { BackoffState } from '../api/backoff.ts'; import { t } from '../../../engine/graph/TripleStore.ts';", options },
    { filename: at('checks/BreachSource.ts'), code: "import type { LocalServiceControl } from '../host.ts';", options },
    { filename: at('app.ts'), code: "import { Router } from './handlers/Router.ts'; import type { HostBridge } from './host.ts'; import { EventBus } from './events/EventBus.ts';", options },
    { filename: at('transport/PortTransport.ts'), code: "import type { Router } from '../handlers/Router.ts';", options },
    // Outside the folder the rule does not look (the layers rule does).
    { filename: path.join(root, 'server/app.ts'), code: "import { x } from './anything/at/all.ts';", options },
  ],
  invalid: [
    // The back-up imports the tiers removed (issue 27).
    { filename: at('outbox/resolutionHandlers.ts'), code: "import { marks } from '../views/NewBreachMarks.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('outbox/x.ts'), code: "import type { HandlerSlice } from '../handlers/combineHandlers.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('sync/afterSync.ts'), code: "import type { NewBreachMarks } from '../views/NewBreachMarks.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('api/BreachAlertClient.ts'), code: "import { readChecksAnswer } from '../checks/readChecksAnswer.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('session/AccountSession.ts'), code: "export { toCoreError } from '../handlers/toCoreError.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('db/x.ts'), code: "export * from '../api/ApiError.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('sync/x.ts'), code: "const s = import('../session/CurrentSession.ts');", options, errors: [{ messageId: 'upward' }] },
    // Features of one tier do not know each other.
    {
      filename: at('graph/NodeQueryClient.ts'),
      code: "import { BackoffState } from '../outbox/backoff.ts';",
      options,
      errors: [{ message: /outbox is in the same tier as graph/ }],
    },
    // Nothing below the composition root imports it.
    { filename: at('handlers/x.ts'), code: "import type { Core } from '../app.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('host.ts'), code: "import { startCore } from './app.ts';", options, errors: [{ messageId: 'upward' }] },
    // A folder nobody placed in a tier is refused, from either side.
    { filename: at('newfeature/x.ts'), code: "import { d } from '../db/Interface.ts';", options, errors: [{ messageId: 'unlisted' }] },
    { filename: at('db/x.ts'), code: "import { n } from '../newfeature/x.ts';", options, errors: [{ messageId: 'unlisted' }] },
  ],
});

describe('CORE_TIERS', () => {
  it('places every folder and root file of electron/core in exactly one tier', () => {
    const core = path.join(import.meta.dirname, '../../electron/core');
    const units = fs.readdirSync(core).sort();
    const placed = CORE_TIERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual(units);
  });

  it('keeps handlers/ as the one tier right below the composition root', () => {
    const handlers = CORE_TIERS.findIndex((tier) => tier.includes('handlers'));
    expect(CORE_TIERS[handlers]).toEqual(['handlers']);
    expect(CORE_TIERS[handlers + 1]).toContain('app.ts');
    expect(handlers + 2).toBe(CORE_TIERS.length);
  });
});
