// `npm ci --omit=optional && npm test`: rolldown's native binding (an optional dependency) is
// missing, so vite cannot load. The check runs before every other one and says one thing to do.
// The missing binding is real: a copy of the project's node_modules made of links to every
// package but the binding, read with --preserve-symlinks so rolldown looks for its binding there.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../core/auth/harness.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const modules = path.join(root, 'node_modules');
let dir: string;

beforeAll(() => {
  dir = tempDir('bm-bundler');
  mkdirSync(path.join(dir, 'node_modules', '@rolldown'), { recursive: true });
  mkdirSync(path.join(dir, 'tools'));
  for (const name of readdirSync(modules)) if (name !== '@rolldown') symlinkSync(path.join(modules, name), path.join(dir, 'node_modules', name));
  // Every @rolldown package but the native bindings (`binding-<platform>`), as --omit=optional leaves it.
  for (const name of readdirSync(path.join(modules, '@rolldown'))) {
    if (!name.startsWith('binding-')) symlinkSync(path.join(modules, '@rolldown', name), path.join(dir, 'node_modules', '@rolldown', name));
  }
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  copyFileSync(path.join(root, 'tools', 'bundlerReady.ts'), path.join(dir, 'tools', 'bundlerReady.ts'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bundler check', () => {
  it('runs before every other check in npm test', () => {
    const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.test!.split('&&')[0]!.trim()).toBe('node tools/bundlerReady.ts');
  });

  it('says one thing to do where the binding is missing, not the loader’s "remove package-lock.json"', () => {
    const run = spawnSync(process.execPath, ['--preserve-symlinks', 'tools/bundlerReady.ts'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Cannot find native binding');
    expect(run.stderr).toContain('Install with plain `npm ci`');
    expect(run.stderr).not.toMatch(/package-lock\.json|npm i`|removing/);
  });

  it('says nothing where the bundler loads', () => {
    const run = spawnSync(process.execPath, ['tools/bundlerReady.ts'], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });
});
