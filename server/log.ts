import { createHash } from 'node:crypto';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Structured logs that never carry a token or an email in clear: authorization headers,
 * cookies and token-like fields are redacted by path, and emails are logged only through
 * {@link emailRef}.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    base: { service: 'breach-alert' },
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
