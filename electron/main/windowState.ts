import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const WindowState = z.object({
  x: z.int().optional(),
  y: z.int().optional(),
  width: z.int().min(200).max(20_000),
  height: z.int().min(200).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowState>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Undefined when there is no file or it is not a window state (then the defaults apply). */
export function loadWindowState(file: string): WindowState | undefined {
  try {
    const parsed = WindowState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Written to a temporary file and renamed over the old one, so a crash never leaves half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(WindowState.parse(state)));
  renameSync(temporary, file);
}

/**
 * Keeps a saved position only while some display still shows enough of the window to grab it
 * (a monitor may have been unplugged since), and never a size larger than the largest display.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (workAreas.length === 0) return state;
  const width = Math.min(state.width, Math.max(...workAreas.map((area) => area.width)));
  const height = Math.min(state.height, Math.max(...workAreas.map((area) => area.height)));
  const fitted = { ...state, width, height };
  if (state.x === undefined || state.y === undefined) return fitted;
  const window = { x: state.x, y: state.y, width, height };
  if (workAreas.some((area) => overlap(window, area) >= 64 * 64)) return fitted;
  const { x: _x, y: _y, ...centred } = fitted;
  return centred;
}

function overlap(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}
