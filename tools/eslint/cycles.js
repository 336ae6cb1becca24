// No import cycles: a module that imports one that imports it back runs with half-initialised
// bindings (which half depends on who was imported first), and a cycle hides which module
// depends on which. The rule follows the static import and re-export lines (type-only ones
// too: a cycle of shapes is still a tangle) from each import of the file being linted and
// reports the import when the chain leads back to the file. Dynamic `import()` is how code is
// split lazily and is left out. No package does this here (eslint-plugin-import is not a
// dependency); the walk is small enough to write: relative specifiers only, resolved as written
// (the project spells out `.ts`), each file read once per linted file and kept while unchanged.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// `import ... from '...'`, `import '...'`, `export ... from '...'` at the start of a statement (multi-line braces included).
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm;

/** The relative imports of one file's text, resolved to absolute paths (packages are outside the graph). */
export function importsOf(file, text) {
  const targets = [];
  for (const match of text.matchAll(STATIC_IMPORT)) {
    const specifier = match[1];
    if (specifier.startsWith('.')) targets.push(path.resolve(path.dirname(file), specifier));
  }
  return targets;
}

/** Every cycle's members, found by Tarjan's strongly connected components (a self-import counts). */
export function cyclesIn(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
    }
    if (low.get(node) !== index.get(node)) return;
    const members = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(members.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Reads imports from disk, each file kept until its modification time changes; undefined for what is not a file. */
export function diskImports() {
  const cache = new Map();
  return (file) => {
    let mtimeMs;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) return undefined;
      mtimeMs = stat.mtimeMs;
    } catch {
      return undefined;
    }
    const hit = cache.get(file);
    if (hit?.mtimeMs === mtimeMs) return hit.imports;
    const imports = importsOf(file, readFileSync(file, 'utf8'));
    cache.set(file, { mtimeMs, imports });
    return imports;
  };
}

/** The shortest chain of imports from `start` to `goal` (both included), or undefined when there is none. */
function chainBetween(start, goal, importsOfFile) {
  const parent = new Map([[start, undefined]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    if (file === goal) {
      const chain = [];
      for (let at = file; at !== undefined; at = parent.get(at)) chain.unshift(at);
      return chain;
    }
    for (const target of importsOfFile(file) ?? []) {
      if (parent.has(target)) continue;
      parent.set(target, file);
      queue.push(target);
    }
  }
  return undefined;
}

/** The rule over a reader of other files' imports (the disk by default; tests pass a map). */
export function createCyclesRule(readImports = diskImports()) {
  /** @type {import('eslint').Rule.RuleModule} */
  return {
    meta: {
      type: 'problem',
      docs: { description: 'Forbid import cycles (static imports and re-exports, type-only included)' },
      schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
      messages: { cycle: 'Import cycle: {{chain}}. Move what both need into a module below them, or pass it in (an Emitter, a callback).' },
    },
    create(context) {
      const root = context.options[0]?.root ?? context.cwd;
      const file = context.filename;
      // This file as it is being linted; the others as on disk, each read once for this file.
      const own = importsOf(file, context.sourceCode.text);
      const seen = new Map();
      const importsOfFile = (at) => {
        if (at === file) return own;
        if (!seen.has(at)) seen.set(at, readImports(at));
        return seen.get(at);
      };
      const name = (at) => path.relative(root, at).split(path.sep).join('/');

      function check(node, specifier) {
        if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
        const target = path.resolve(path.dirname(file), specifier);
        const back = chainBetween(target, file, importsOfFile);
        if (back) context.report({ node, messageId: 'cycle', data: { chain: [file, ...back].map(name).join(' → ') } });
      }

      return {
        ImportDeclaration: (node) => check(node.source, node.source.value),
        ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
        ExportAllDeclaration: (node) => check(node.source, node.source.value),
      };
    },
  };
}

export const cyclesRule = createCyclesRule();
