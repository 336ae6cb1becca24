// The core's log (electron/main/rotatingLog.ts) stays within its bound while the app runs, not
// only at start: past the limit the file moves to `.1` and a new one starts, so the two hold at
// most about twice the limit however much the core writes (issue 35, bounds: it grew without
// end between restarts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRotatingLog } from '../../electron/main/rotatingLog.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function logFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'core-log-'));
  dirs.push(dir);
  return path.join(dir, 'logs', 'core.log');
}

function writeAll(log: ReturnType<typeof openRotatingLog>, lines: string[]): Promise<void> {
  for (const line of lines) log.write(line);
  return new Promise((resolve) => log.end(resolve));
}

describe('the core log', () => {
  it('rotates while written: 106 KB through a 10 KB bound leaves two files of about the bound, the newest lines last', async () => {
    const file = logFile();
    // 1,050 lines of 101 bytes: ten rotations, and 50 lines since the last.
    const lines = Array.from({ length: 1050 }, (_, i) => `${String(i).padStart(4, '0')} ${'x'.repeat(95)}\n`);
    await writeAll(openRotatingLog(file, 10_000), lines);
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['core.log', 'core.log.1']);
    expect(statSync(file).size).toBeLessThanOrEqual(10_000 + 101);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(10_000 + 101);
    // Whole lines, in order: the newest in the current file, the ones just before in `.1`.
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)).toBe(lines.at(-1)!.trimEnd());
    const previous = readFileSync(`${file}.1`, 'utf8').trimEnd().split('\n');
    const current = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(Number(previous.at(-1)!.slice(0, 4)) + 1).toBe(Number(current[0]!.slice(0, 4)));
  });

  it('rotates a file already past the bound when opened, and appends to one below it', async () => {
    const file = logFile();
    await writeAll(openRotatingLog(file, 1000), ['first\n']);
    await writeAll(openRotatingLog(file, 1000), ['second\n']);
    expect(readFileSync(file, 'utf8')).toBe('first\nsecond\n');
    expect(existsSync(`${file}.1`)).toBe(false);
    writeFileSync(file, 'y'.repeat(2000));
    await writeAll(openRotatingLog(file, 1000), ['third\n']);
    expect(readFileSync(file, 'utf8')).toBe('third\n');
    expect(statSync(`${file}.1`).size).toBe(2000);
  });
});
