import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import tseslint from 'typescript-eslint';
import { layersRule } from '../../tools/eslint/layers.js';

RuleTester.describe = describe;
RuleTester.it = it;

const root = '/project';
const at = (file: string) => path.join(root, file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' } });

tester.run('local/layers', layersRule, {
  valid: [
    { filename: at('shared/api/breach.ts'), code: "import { z } from 'zod'; import { a } from './primitives.ts';", options: [{ root }] },
    { filename: at('server/app.ts'), code: "import x from '../shared/api/index.ts'; import http from 'node:http'; import pino from 'pino';", options: [{ root }] },
    { filename: at('server/graph/routes.ts'), code: "import { e } from '../../engine/graph/NodeQueryEngine.ts';", options: [{ root }] },
    { filename: at('electron/core/session/s.ts'), code: "import { t } from '../../../engine/graph/TripleStore.ts';", options: [{ root }] },
    {
      filename: at('engine/graph/TripleStore.ts'),
      code: "import type { D } from '../../shared/graph/index.ts'; import { o } from '../db/openPrivateDatabase.ts'; import Database from 'better-sqlite3'; import { randomBytes } from 'node:crypto';",
      options: [{ root }],
    },
    { filename: at('electron/core/sync/pull.ts'), code: "import { s } from '../../../shared/api/index.ts'; import Database from 'better-sqlite3';", options: [{ root }] },
    { filename: at('electron/main/index.ts'), code: "import { app } from 'electron'; import { startCore } from '../core/index.ts';", options: [{ root }] },
    { filename: at('renderer/App.tsx'), code: "import { create } from 'zustand'; import { c } from '../shared/ipc/contract.ts';", options: [{ root }] },
    { filename: at('test/anything.test.ts'), code: "import 'electron'; import '../server/app.ts';", options: [{ root }] },
  ],
  invalid: [
    { filename: at('shared/api/x.ts'), code: "import fs from 'node:fs';", options: [{ root }], errors: [{ messageId: 'node' }] },
    { filename: at('shared/api/x.ts'), code: "import pino from 'pino';", options: [{ root }], errors: [{ messageId: 'pkg' }] },
    { filename: at('shared/api/x.ts'), code: "import { a } from '../../server/app.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('electron/core/auth/x.ts'), code: "import { safeStorage } from 'electron';", options: [{ root }], errors: [{ messageId: 'pkg' }] },
    { filename: at('electron/core/auth/x.ts'), code: "import type { App } from 'electron';", options: [{ root }], errors: [{ messageId: 'pkg' }] },
    { filename: at('electron/core/x.ts'), code: "import { w } from '../main/window.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('renderer/x.ts'), code: "import { s } from '../electron/core/store.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('renderer/x.ts'), code: "import fs from 'fs';", options: [{ root }], errors: [{ messageId: 'node' }] },
    { filename: at('renderer/x.ts'), code: "const m = import('../server/app.ts');", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('server/x.ts'), code: "export * from '../electron/core/store/db.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    // The service reaches the engine through engine/, never the desktop core (the old exception is gone).
    { filename: at('server/graph/routes.ts'), code: "import { e } from '../../electron/core/graph/NodeQueryEngine.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    // The engine sits below both hosts: it may not reach up into either, nor into Electron.
    { filename: at('engine/graph/x.ts'), code: "import { s } from '../../electron/core/session/CurrentSession.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('engine/graph/x.ts'), code: "import { a } from '../../server/app.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('engine/db/x.ts'), code: "import { app } from 'electron';", options: [{ root }], errors: [{ messageId: 'pkg' }] },
    { filename: at('renderer/x.ts'), code: "import { e } from '../engine/graph/NodeQueryEngine.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('shared/graph/x.ts'), code: "import { e } from '../../engine/graph/NodeQueryEngine.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
    { filename: at('electron/preload/index.ts'), code: "import { d } from '../core/db.ts';", options: [{ root }], errors: [{ messageId: 'layer' }] },
  ],
});
