import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { isLoopbackHost } from '../config.ts';

/** What sends a verification code to an address. */
export interface VerificationMailer {
  /** Resolves once the mail server accepted the message; rejects with {@link MailNotSentError}. */
  sendCode(message: { to: string; code: string; expiresAt: Date; serviceName: string }): Promise<void>;
  close(): void;
}

/** The mail server refused the message or could not be reached; `detail` is safe to show. */
export class MailNotSentError extends Error {
  override readonly name = 'MailNotSentError';
}

/** The SMTP timeouts (milliseconds): a mail server that does not answer must not hold a request. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * Codes go out through a real SMTP server (`--smtp-url`), with nodemailer: `smtps://` speaks TLS
 * from the start (RFC 8314), `smtp://` upgrades with STARTTLS (RFC 3207) — required unless the
 * server is on loopback (a local relay or a test's server), so a code never crosses a network in
 * clear. The URL may carry the account (`smtp://user:password@host:587`); it is never logged.
 */
export function createSmtpMailer(options: { url: string; from: string }): VerificationMailer {
  const url = new URL(options.url);
  const transport = nodemailer.createTransport({
    url: options.url,
    requireTLS: url.protocol === 'smtp:' && !isLoopbackHost(url.hostname),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } satisfies SMTPTransport.Options);
  return {
    async sendCode({ to, code, expiresAt, serviceName }) {
      const until = expiresAt.toISOString().slice(11, 16) + ' UTC';
      try {
        await transport.sendMail({
          from: options.from,
          to,
          subject: `${code} is your code to monitor this address`,
          text: [
            `Enter ${code} in Breach Monitor to confirm that ${to} is yours and that ${serviceName} may check it for data breaches.`,
            '',
            `The code works until ${until}.`,
            '',
            'If you did not ask for this, ignore this message: the address is not checked, listed or counted until the code is entered.',
          ].join('\n'),
        });
      } catch (error) {
        // nodemailer's messages name the server and its answer, never the URL's password.
        const reason = error instanceof Error ? error.message : String(error);
        throw new MailNotSentError(`the mail server (${url.host}) did not take the message: ${reason}`);
      }
    },
    close() {
      transport.close();
    },
  };
}
