// What the browser host keeps between runs of `npm start`: its port and its secret, so a tab
// left open reconnects to the restarted app (same origin, same secret in its storage). The file
// is the person's own (mode 0600, in the app's data folder), like the databases beside it.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const HostState = z.object({
  port: z.int().min(1024).max(65535),
  secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a 32-byte base64url secret'),
});
export type HostState = z.infer<typeof HostState>;

/** The saved state, or undefined when there is none or it is not valid (then a fresh one is made). */
export function loadHostState(file: string): HostState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = HostState.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    console.warn(`${file}: ignored (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; ')})`);
  } catch {
    console.warn(`${file}: ignored (not JSON)`);
  }
  return undefined;
}

export function saveHostState(file: string, state: HostState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(HostState.parse(state)), { mode: 0o600 });
  renameSync(temporary, file);
}

export function newHostSecret(): string {
  return randomBytes(32).toString('base64url');
}
