// Log lines a sender chooses the text of (a request path, an upstream's answer, an error's message)
// are bounded (server/log.ts): every text field is cut to MAX_LOGGED_TEXT characters, saying how
// many more there were, so a 16 KB path or a megabyte body logged on each failure cannot grow the
// log by as much each time. Redaction still applies, and short fields are untouched.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, MAX_LOGGED_TEXT } from '../../../server/log.ts';

function memoryLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), lines };
}

describe('log lines', () => {
  it('cut every long text field, nested ones and error messages included, and say by how much', () => {
    const { logger, lines } = memoryLogger();
    const path = '/' + 'a'.repeat(16_000);
    logger.warn({ path, upstream: { status: 401, body: 'b'.repeat(1_000_000) }, names: ['c'.repeat(50_000)] }, 'database unavailable');
    logger.error({ err: new Error('d'.repeat(200_000)) }, 'request failed');

    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.length).toBeLessThan(12 * MAX_LOGGED_TEXT);
    const warn = JSON.parse(lines[0]!) as { path: string; upstream: { status: number; body: string }; names: string[]; msg: string };
    expect(warn.path).toBe(`${path.slice(0, MAX_LOGGED_TEXT)}… (${path.length - MAX_LOGGED_TEXT} more characters)`);
    expect(warn.upstream.status).toBe(401);
    expect(warn.upstream.body).toMatch(new RegExp(`^b{${MAX_LOGGED_TEXT}}… \\(${1_000_000 - MAX_LOGGED_TEXT} more characters\\)$`));
    expect(warn.names[0]).toMatch(/^c+… \(48976 more characters\)$/);
    expect(warn.msg).toBe('database unavailable');
    const error = JSON.parse(lines[1]!) as { err: { type: string; message: string; stack: string } };
    expect(error.err.type).toBe('Error');
    expect(error.err.message).toMatch(/^d{1024}… \(198976 more characters\)$/);
    expect(error.err.stack).toContain('logLines.test.ts');
  });

  it('leaves short fields as they are and still redacts tokens and emails', () => {
    const { logger, lines } = memoryLogger();
    logger.info({ path: '/api/v1/user', token: 'secret-token', email: 'a@example.com', count: 3 }, 'request');
    expect(JSON.parse(lines[0]!)).toMatchObject({ path: '/api/v1/user', token: '[redacted]', email: '[redacted]', count: 3 });
  });
});
