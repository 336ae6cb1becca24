import fs from 'node:fs';
import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, expect, it } from 'vitest';
import tseslint from 'typescript-eslint';
import { SERVER_TIERS, tiersRule } from '../../tools/eslint/layers.js';

RuleTester.describe = describe;
RuleTester.it = it;

const root = '/project';
const options = [{ root, folder: 'server', tiers: SERVER_TIERS }];
const at = (file: string) => path.join(root, 'server', file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' } });

tester.run('local/tiers', tiersRule, {
  valid: [
    // A feature stands on storage/ and owns its persistence in both dialects.
    {
      filename: at('breaches/postgres/PostgresBreachStore.ts'),
      code: "import { createPool } from '../../storage/pool.ts'; import { validBreach } from '../breachRules.ts'; import { compareIds } from '../../catalog/dataClasses.ts'; import type { Logger } from '../../log.ts';",
      options,
    },
    { filename: at('hibp/SqliteLookupStore.ts'), code: "import { migrate } from '../storage/sqliteMigrate.ts'; import { LATEST_SCHEMA_VERSION } from '../breaches/migrations/index.ts';", options },
    { filename: at('search/PostgresSearchIndex.ts'), code: "import { catalogLog } from '../breaches/postgres/catalogLog.ts'; import { transaction } from '../storage/pool.ts';", options },
    { filename: at('rtdb/authenticate.ts'), code: "import { createServiceAccounts } from '../identity/serviceAccounts.ts'; import { StoreUnavailableError } from '../storage/errors.ts';", options },
    { filename: at('hibp/index.ts'), code: "import { breachDataSource } from '../config.ts'; import { DemoExposures } from '../breaches/exposureSource.ts';", options },
    { filename: at('storage/pool.ts'), code: "import { StoreUnavailableError } from './errors.ts'; import pg from 'pg';", options },
    // The composition tiers open the storage, mount every feature and start the process.
    {
      filename: at('openStorage.ts'),
      code: "import { SqliteRtdbStore } from './rtdb/SqliteRtdbStore.ts'; import { openPostgresSearchStorage } from './search/postgresStorage.ts'; import { migratePostgres } from './storage/postgresMigrate.ts';",
      options,
    },
    { filename: at('app.ts'), code: "import { openStorage } from './openStorage.ts'; import { MOUNT_ORDER } from './mounts.ts'; import { api } from './api/routes.ts';", options },
    {
      filename: at('mounts.ts'),
      code: "import type { ServiceParts } from './parts/ServiceParts.ts'; import { createApiMount } from './api/mount.ts'; import { createRtdbMount } from './rtdb/mount.ts';",
      options,
    },
    { filename: at('parts/ServiceParts.ts'), code: "import { openStorage } from '../openStorage.ts'; import { startBreachData } from '../hibp/index.ts';", options },
    { filename: at('main.ts'), code: "import { startService } from './app.ts'; import { runSecretCommand } from './commands/secretCommand.ts';", options },
    // Outside the folder the rule does not look (the layers rule does).
    { filename: path.join(root, 'electron/core/app.ts'), code: "import { x } from './anything/at/all.ts';", options },
  ],
  invalid: [
    // The imports that ran back up before the tiers (issue 37).
    { filename: at('storage/openStorage.ts'), code: "import { SqliteRtdbStore } from '../rtdb/SqliteRtdbStore.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('storage/pool.ts'), code: "import { openStorage } from '../openStorage.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('storage/errors.ts'), code: "import type { ResolutionChange } from '../breaches/BreachStore.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('storage/sqliteMigrate.ts'), code: "import { MIGRATIONS } from '../breaches/migrations/index.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('config.ts'), code: "import { HIBP_DEFAULT_URL } from './hibp/constants.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('breaches/SqliteLookupStore.ts'), code: "import type { LookupStore } from '../hibp/LookupStore.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('rtdb/secretCommand.ts'), code: "import { openStorage } from '../openStorage.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('catalog/loadCatalog.ts'), code: "import type { BreachStore } from '../breaches/BreachStore.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('http/mounts.ts'), code: "export * from '../mounts.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('api/routes.ts'), code: "const f = import('../firefox/routes.ts');", options, errors: [{ messageId: 'upward' }] },
    // Nothing below the composition imports it.
    { filename: at('dev/routes.ts'), code: "import type { RunningService } from '../app.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('openStorage.ts'), code: "import { SERVICE_MOUNTS } from './mounts.ts';", options, errors: [{ messageId: 'upward' }] },
    // The parts know no mount: what two mounts share is a part, never one mount's output.
    { filename: at('parts/ServiceParts.ts'), code: "import { SERVICE_MOUNTS } from '../mounts.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('parts/serve.ts'), code: "import type { RunningService } from '../app.ts';", options, errors: [{ messageId: 'upward' }] },
    { filename: at('api/mount.ts'), code: "import { DEV_GRAPH_KEY } from '../mounts.ts';", options, errors: [{ messageId: 'upward' }] },
    // Features of one tier do not know each other.
    { filename: at('hibp/HibpExposures.ts'), code: "import type { Pending } from '../api/followUpVersions.ts';", options, errors: [{ message: /api is in the same tier as hibp/ }] },
    { filename: at('search/index.ts'), code: "import { detailsReader } from '../rtdb/detailsFeed.ts';", options, errors: [{ message: /rtdb is in the same tier as search/ }] },
    {
      filename: at('identity/migrations/index.ts'),
      code: "import type { Migration } from '../../breaches/migrations/index.ts';",
      options,
      errors: [{ message: /breaches is in the same tier as identity/ }],
    },
    { filename: at('storage/pool.ts'), code: "import { HttpProblem } from '../http/problems.ts';", options, errors: [{ message: /http is in the same tier as storage/ }] },
    // A folder nobody placed in a tier is refused, from either side.
    { filename: at('store/x.ts'), code: "import { createPool } from '../storage/pool.ts';", options, errors: [{ messageId: 'unlisted' }] },
    { filename: at('api/x.ts'), code: "import { n } from '../newfeature/x.ts';", options, errors: [{ messageId: 'unlisted' }] },
  ],
});

describe('SERVER_TIERS', () => {
  it('places every folder and root file of server/ in exactly one tier', () => {
    const server = path.join(import.meta.dirname, '../../server');
    // package.json is the service package's manifest (the npm workspace), not a unit anything imports.
    const units = fs
      .readdirSync(server)
      .filter((entry) => entry !== 'package.json')
      .sort();
    const placed = SERVER_TIERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual(units);
  });

  it('keeps storage/ in the bottom tiers and the process entry alone on top', () => {
    const tierOf = (unit: string) => SERVER_TIERS.findIndex((tier) => tier.includes(unit));
    for (const feature of ['breaches', 'identity', 'hibp', 'rtdb', 'search', 'api']) expect(tierOf('storage')).toBeLessThan(tierOf(feature));
    expect(tierOf('openStorage.ts')).toBeLessThan(tierOf('app.ts'));
    expect(SERVER_TIERS.at(-1)).toEqual(['main.ts']);
  });
});
