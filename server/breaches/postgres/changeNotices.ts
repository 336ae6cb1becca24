import pg from 'pg';
import { emailKey } from '../../../shared/api/index.ts';

/**
 * The channel every write announces itself on: the writing store's id, then its emails (one a
 * line) or `*` for the catalog. A listener skips its own store's notices (it noted them at commit).
 */
export const CHANGE_CHANNEL = 'breach_changes';
/** PostgreSQL's payload limit is 8000 bytes; a longer list is sent as `*` (everything changed). */
const MAX_PAYLOAD = 7000;
const RECONNECT_MS = 1000;

export function changePayload(writer: string, emails: readonly string[] | '*'): string {
  const list = emails === '*' ? '*' : emails.join('\n');
  return `${writer}\n${list.length > MAX_PAYLOAD ? '*' : list}`;
}

/**
 * `LISTEN`/`NOTIFY` invalidation (the alternative to a revision check per request, measured by
 * `bench:server -- --store postgres --invalidation notify`): per-email counters kept in memory,
 * moved by this instance's own writes at once and by other instances' when their notices arrive.
 * Notices arrive a few milliseconds after the other instance's commit, so a read right after
 * another instance's write may see the older answer for that long; the revision check never does,
 * which is why it is the default. While the listening connection is down, `stamp` answers
 * undefined and the store falls back to the revision check; every reconnection starts a new epoch.
 */
export class ChangeListener {
  readonly #url: string;
  readonly #writer: string;
  readonly #onError: (error: Error) => void;
  #client: pg.Client | undefined;
  #listening = false;
  #closed = false;
  #epoch = 0;
  #counter = 0;
  #catalog = 0;
  readonly #emails = new Map<string, number>();

  constructor(url: string, writer: string, onError: (error: Error) => void) {
    this.#url = url;
    this.#writer = writer;
    this.#onError = onError;
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: 'breach-alert-service listener' });
    this.#client = client;
    client.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      const [from, ...emails] = (message.payload ?? '*').split('\n');
      if (from === this.#writer) return;
      this.note(emails.length === 0 || emails[0] === '*' ? '*' : emails);
    });
    const lost = (error?: Error) => {
      if (!this.#listening && this.#client !== client) return;
      this.#listening = false;
      this.#client = undefined;
      if (error) this.#onError(error);
      if (!this.#closed) setTimeout(() => void this.start().catch((failure: unknown) => lost(failure as Error)), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    // Whatever happened while not listening is unknown: a new epoch forgets every counter.
    this.#epoch += 1;
    this.#emails.clear();
    this.#listening = true;
  }

  /** A change this instance made (after its commit), or another's notice. */
  note(emails: readonly string[] | '*'): void {
    this.#counter += 1;
    if (emails === '*') this.#catalog = this.#counter;
    else for (const email of emails) this.#emails.set(email, this.#counter);
  }

  /**
   * What moves with every `*` notice (catalog and account writes) and every reconnection: a
   * value remembered under one generation is still current while it is unchanged. Undefined
   * while not listening.
   */
  generation(): string | undefined {
    return this.#listening ? `${this.#epoch}.${this.#catalog}` : undefined;
  }

  /** The stamp without a query, or undefined while not listening. */
  stamp(emails: readonly string[]): string | undefined {
    if (!this.#listening) return undefined;
    let stamp = `n${this.#epoch}.${this.#catalog}`;
    for (const email of emails) stamp += '.' + (this.#emails.get(emailKey(email)) ?? 0);
    return stamp;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    await this.#client?.end().catch(() => {});
  }
}
