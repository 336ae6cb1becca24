// The "may import" column of docs/architecture.md, enforced. Each top-level folder is a
// layer; an import is allowed when its target layer (or npm package) is on the source
// layer's list. Type-only imports follow the same rule: a layer that cannot see another at
// run time should not depend on its shapes either.
import path from 'node:path';
import { builtinModules } from 'node:module';

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

export default { rules: { layers: layersRule } };
