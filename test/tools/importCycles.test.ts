// No import cycles in the desktop app: a module that imports one that imports it back runs
// with half-initialised bindings (the order depends on who is imported first), and a cycle
// hides which module depends on which. Walks renderer/ and electron/ (with what they import
// from shared/) over the static import and re-export lines, type-only ones included: a cycle
// of shapes is still a tangle of dependencies. Dynamic `import()` is how code is split lazily
// and is left out.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = /\.(ts|tsx)$/;
// `import ... from '...'`, `import '...'`, `export ... from '...'` at the start of a statement (multi-line braces included).
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

/** Relative imports of one file, resolved to files (packages are outside the graph). */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const targets: string[] = [];
  for (const match of text.matchAll(STATIC_IMPORT)) {
    const specifier = match[1]!;
    if (specifier.startsWith('.')) targets.push(path.resolve(path.dirname(file), specifier));
  }
  return targets;
}

/** Every cycle's members, found by Tarjan's strongly connected components (a self-import counts). */
export function cyclesIn(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(members.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('finds a cycle, a self-import and none in a chain (the checker itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(cyclesIn(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    const lines = "import { x } from './x.ts';\nimport type {\n  Y,\n} from '../y.ts';\nexport * from './z.ts';\nimport 'zod';\nconst lazy = () => import('./lazy.ts');\n";
    expect(importsOf('/p/q/file.ts', lines)).toEqual(['/p/q/x.ts', '/p/y.ts', '/p/q/z.ts']);
  });

  it('renderer/ and electron/ (with the shared/ code they import) have none', () => {
    const graph = new Map<string, string[]>();
    for (const file of [...sourceFiles(path.join(ROOT, 'renderer')), ...sourceFiles(path.join(ROOT, 'electron')), ...sourceFiles(path.join(ROOT, 'shared'))]) graph.set(file, importsOf(file));
    const cycles = cyclesIn(graph).map((members) => members.map((file) => path.relative(ROOT, file)));
    expect(cycles).toEqual([]);
  });
});
