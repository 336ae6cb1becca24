// A real SMTP server for tests (the `smtp-server` package, the server side of nodemailer's
// project) on a loopback port: it takes every message the service sends and keeps it whole, so a
// test reads the code from the message as a person would. STARTTLS is not offered: its built-in
// certificate is self-signed, and the service requires TLS only off loopback (server/mail).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as received (headers and body). */
  raw: string;
  subject: string;
}

export class TestSmtpServer {
  readonly received: ReceivedMail[];
  readonly #server: SMTPServer;
  readonly url: string;

  private constructor(server: SMTPServer, port: number, received: ReceivedMail[]) {
    this.#server = server;
    this.received = received;
    this.url = `smtp://127.0.0.1:${port}`;
  }

  static async start(): Promise<TestSmtpServer> {
    const received: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            subject,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (server.server.address() as AddressInfo).port;
    return new TestSmtpServer(server, port, received);
  }

  /** The messages sent to `address`, oldest first. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address));
  }

  /** The code in the last message sent to `address` (its subject starts with it). */
  lastCode(address: string): string {
    const mail = this.to(address).at(-1);
    const code = mail && /^(\d{6}) /.exec(mail.subject)?.[1];
    if (!code) throw new Error(`no code was sent to ${address} (${this.received.length} messages received)`);
    return code;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
