// The "may import" column of docs/architecture.md, enforced. Each top-level folder is a
// layer; an import is allowed when its target layer (or npm package) is on the source
// layer's list. Type-only imports follow the same rule: a layer that cannot see another at
// run time should not depend on its shapes either.
import path from 'node:path';
import { builtinModules } from 'node:module';
import { cyclesRule } from './cycles.js';

const BUILTINS = new Set(builtinModules);

/** @typedef {{ layers: string[], node: boolean, packages: 'any' | string[], forbiddenPackages?: string[] }} LayerRule */

/** @type {Record<string, LayerRule>} */
export const LAYER_RULES = {
  shared: { layers: ['shared'], node: false, packages: ['zod'] },
  // Node-only parts both hosts mount (the graph store and engine, the private SQLite opener).
  engine: { layers: ['shared', 'engine'], node: true, packages: 'any', forbiddenPackages: ['electron'] },
  'electron/core': { layers: ['shared', 'engine', 'electron/core'], node: true, packages: 'any', forbiddenPackages: ['electron'] },
  'electron/main': { layers: ['shared', 'electron/core', 'electron/main'], node: true, packages: 'any' },
  'electron/browser-host': { layers: ['shared', 'electron/core', 'electron/browser-host'], node: true, packages: 'any', forbiddenPackages: ['electron'] },
  'electron/preload': { layers: ['shared', 'electron/preload'], node: false, packages: ['electron'] },
  renderer: { layers: ['shared', 'renderer'], node: false, packages: 'any', forbiddenPackages: ['electron'] },
  server: { layers: ['shared', 'engine', 'server'], node: true, packages: 'any', forbiddenPackages: ['electron'] },
};

const LAYER_ORDER = Object.keys(LAYER_RULES).sort((a, b) => b.length - a.length);

/** The layer a project-relative path belongs to, or undefined outside the layered folders. */
export function layerOf(relativePath) {
  const normalized = relativePath.split(path.sep).join('/');
  return LAYER_ORDER.find((layer) => normalized === layer || normalized.startsWith(layer + '/'));
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isInside(relativeTarget, allowed) {
  const normalized = relativeTarget.split(path.sep).join('/');
  return normalized === allowed || normalized.startsWith(allowed + '/');
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import boundaries between shared/, engine/, electron/core, electron/main, electron/preload, renderer/ and server/' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      layer: '{{source}} may not import {{target}}: {{source}} may import only {{allowed}} (see docs/architecture.md).',
      node: '{{source}} may not import the Node built-in "{{specifier}}": it must run without Node.',
      pkg: '{{source}} may not import the package "{{specifier}}"{{why}}.',
    },
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = path.relative(root, context.filename);
    const source = layerOf(file);
    if (!source) return {};
    const rule = LAYER_RULES[source];

    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        const target = path.relative(root, path.resolve(path.dirname(context.filename), specifier));
        if (!rule.layers.some((allowed) => isInside(target, allowed))) {
          context.report({ node, messageId: 'layer', data: { source, target: target.split(path.sep).join('/'), allowed: rule.layers.join(', ') } });
        }
        return;
      }
      if (specifier.startsWith('node:') || BUILTINS.has(packageName(specifier))) {
        if (!rule.node) context.report({ node, messageId: 'node', data: { source, specifier } });
        return;
      }
      const name = packageName(specifier);
      if (rule.forbiddenPackages?.includes(name)) {
        context.report({ node, messageId: 'pkg', data: { source, specifier, why: ` (${source} must not depend on ${name})` } });
      } else if (rule.packages !== 'any' && !rule.packages.includes(name)) {
        context.report({ node, messageId: 'pkg', data: { source, specifier, why: `: allowed packages are ${rule.packages.join(', ')}` } });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

/**
 * The tiers inside electron/core, bottom to top (docs/architecture.md, "Tiers inside the core").
 * A unit is a folder of the core, or a file at its root. A unit imports only units of a lower
 * tier: features of one tier do not know each other, and nothing imports upward. handlers/ is
 * the one tier that registers channels and wires several features together; app.ts composes.
 */
export const CORE_TIERS = [
  ['accounts', 'events', 'notifications', 'settings', 'host.ts'], // ids, emitters, pure policy, the host's contract
  ['db'], // the account database: queries and migrations
  ['api'], // the service's clients, their errors, their backoff
  ['auth', 'queries'], // sign-in and secrets; local filters over the database
  ['outbox', 'feed', 'graph', 'search', 'passwords', 'addresses'], // features over the database and the service
  ['logins'], // accounts read from password-manager exports: their sites matched to breaches, their passwords checked (passwords/)
  ['sync'], // push (the outbox) then pull
  ['session'], // one account open: its database, sync and graph
  ['checks', 'status'], // what the open account's breach data and sync line say
  ['views'], // view models of the open account
  ['handlers'], // channels, the router, host signals, what a sync means: the only tier that joins features
  ['app.ts', 'transport'], // startCore, and the port it is served over
];

/**
 * The tiers inside renderer/, bottom to top (docs/architecture.md, "Tiers inside the renderer").
 * The same rule as the core's: a unit imports only units of a lower tier. The stores and the
 * component kit share a tier, so a store never draws and a component never reaches the core;
 * features/ is where they meet, as one unit (a page may use another feature's parts).
 */
export const RENDERER_TIERS = [
  ['lib', 'styles'], // the core's port, formats, hooks, pure models over the core's answers; the CSS
  ['state', 'components'], // the stores over the core; the component kit
  ['features'], // the pages and their parts
  ['App.tsx'], // the shell: routes to the pages
  ['main.tsx', 'vite.config.ts'], // the page's entry (it starts lib/early.ts first) and the build's
];

/**
 * The tiers inside server/, bottom to top (docs/architecture.md, "Tiers inside the service").
 * The same rule as the core's: a unit imports only units of a lower tier. storage/ is the
 * bottom every feature stands on (the PostgreSQL pool, both migration runners and the one
 * PostgreSQL list, notice channels, errors, private files; SQLite opens through engine/);
 * each feature owns its persistence in both dialects; the composition tiers open the storage,
 * mount the features and start the process.
 */
export const SERVER_TIERS = [
  ['log.ts', 'timers.ts'], // the logger; the longest timer Node keeps
  ['config.ts', 'http', 'storage'], // the parsed configuration; HTTP helpers; the storage every feature stands on
  ['auth', 'catalog', 'mail'], // access-token verifiers; catalog files and the demo data; the verification mailer
  ['breaches', 'identity'], // the breach store (rules, both dialects), its catalog loader and exposure sources; the OpenID provider
  ['api', 'hibp', 'rtdb', 'search'], // the breach-alert API; HIBP lookups and their stores; the realtime database; search
  ['firefox', 'graph'], // the routes built on the API
  ['dev'], // the development routes (they reach every feature)
  ['openapi', 'openapi.yaml'], // the OpenAPI document and its generated file
  ['openStorage.ts'], // the one place storage is opened: SQLite or PostgreSQL, once
  ['parts'], // the parts the mounts share, each opened when first asked for; serving the router's table
  ['mounts.ts'], // the mount table: every feature's createXMount, in the router's order
  ['app.ts', 'commands'], // startService; the command-line commands
  ['main.ts'], // the process's entry
];

/** @type {import('eslint').Rule.RuleModule} */
export const tiersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Inside one layer (electron/core, renderer, server), a folder imports only folders of a lower tier' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, folder: { type: 'string' }, tiers: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
        additionalProperties: false,
      },
    ],
    messages: {
      upward: '{{folder}}/{{source}} may not import {{target}}: {{unit}} is {{where}}; a folder of {{folder}} imports only tiers below its own (see docs/architecture.md).',
      unlisted: '{{folder}}/{{unit}} is in no tier: place it in the tier table of {{folder}} (CORE_TIERS, RENDERER_TIERS or SERVER_TIERS in tools/eslint/layers.js) before importing it or from it.',
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const root = options.root ?? context.cwd;
    const folder = options.folder ?? 'electron/core';
    const tiers = options.tiers ?? CORE_TIERS;
    const tierOf = new Map(tiers.flatMap((units, index) => units.map((unit) => [unit, index])));
    const base = path.join(root, folder);
    const unitOf = (file) => {
      const relative = path.relative(base, file);
      if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
      return relative.split(path.sep)[0];
    };
    const source = unitOf(context.filename);
    if (source === undefined) return {};

    function check(node, specifier) {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const resolved = path.resolve(path.dirname(context.filename), specifier);
      const unit = unitOf(resolved);
      if (unit === undefined || unit === source) return;
      const from = tierOf.get(source);
      const to = tierOf.get(unit);
      if (from === undefined) return context.report({ node, messageId: 'unlisted', data: { folder, unit: source } });
      if (to === undefined) return context.report({ node, messageId: 'unlisted', data: { folder, unit } });
      if (to < from) return;
      const where = to === from ? `in the same tier as ${source} (features of one tier do not know each other)` : `in a higher tier than ${source}`;
      context.report({
        node,
        messageId: 'upward',
        data: { folder, source: path.relative(base, context.filename).split(path.sep).join('/'), target: path.relative(base, resolved).split(path.sep).join('/'), unit, where },
      });
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule, tiers: tiersRule, 'no-cycles': cyclesRule } };
