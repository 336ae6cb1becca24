import { createHash } from 'node:crypto';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Longest text a log field keeps (a request path, an upstream's answer, an error's message):
 * many fields are chosen by whoever sent a request or an upstream answer, and a 16 KB path logged
 * on every failed request, or a megabyte body, would grow the log by as much each time.
 */
export const MAX_LOGGED_TEXT = 1024;

/** `text` cut to {@link MAX_LOGGED_TEXT} characters, saying how many more there were. */
function clipped(text: string): string {
  return text.length <= MAX_LOGGED_TEXT ? text : `${text.slice(0, MAX_LOGGED_TEXT)}… (${text.length - MAX_LOGGED_TEXT} more characters)`;
}

/** The fields of one log line with every string (in plain objects and arrays, a few levels down) clipped. */
function clipStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return clipped(value);
  if (depth >= 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => clipStrings(item, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  // Errors keep their own shape: the `err` serializer clips what it takes from them.
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, clipStrings(field, depth + 1)]));
}

/** pino's error serializer with the message clipped, also where the stack repeats it (the rest of the stack is code's, not a sender's). */
function clippedError(error: Error): unknown {
  const serialized = pino.stdSerializers.err(error) as { message?: unknown; stack?: unknown };
  const { message, stack } = serialized;
  if (typeof message === 'string' && message.length > MAX_LOGGED_TEXT) {
    serialized.message = clipped(message);
    if (typeof stack === 'string') serialized.stack = stack.replace(message, () => clipped(message));
  }
  return serialized;
}

/**
 * Structured logs that never carry a token or an email in clear: authorization headers,
 * cookies and token-like fields are redacted by path, and emails are logged only through
 * {@link emailRef}. Every text field (the message aside) is cut to {@link MAX_LOGGED_TEXT}, so
 * no sender makes one line longer than that per field.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    base: { service: 'breach-alert' },
    formatters: { log: (fields) => clipStrings(fields) as Record<string, unknown> },
    serializers: { err: clippedError },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'headers.authorization',
        '*.access_token',
        '*.refresh_token',
        '*.id_token',
        'access_token',
        'refresh_token',
        'id_token',
        'token',
        '*.token',
        'email',
        '*.email',
        'emails',
        '*.emails',
      ],
      censor: '[redacted]',
    },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

/** A stable, non-reversible reference to an email for logs: `email:3f2a9c1b`. */
export function emailRef(email: string): string {
  return 'email:' + createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 8);
}
