import pg from 'pg';

const RECONNECT_MS = 1000;
/** PostgreSQL's payload limit is 8000 bytes; senders fall back to "everything changed" above this. */
export const MAX_NOTICE_PAYLOAD = 7000;

export interface NoticeChannelOptions {
  url: string;
  /** A plain SQL identifier. */
  channel: string;
  onNotice: (payload: string) => void;
  /**
   * Called each time listening resumes after the connection was lost: notices sent meanwhile are
   * gone, so whoever relies on them must assume anything changed.
   */
  onResumed: () => void;
  onError: (error: Error) => void;
}

/**
 * One dedicated connection that `LISTEN`s on a channel and reconnects (every second) when it is
 * lost — the pattern of {@link ChangeListener}, for any component's notices.
 */
export class NoticeChannel {
  readonly #options: NoticeChannelOptions;
  #client: pg.Client | undefined;
  #listening = false;
  #closed = false;
  #lostOnce = false;

  constructor(options: NoticeChannelOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`not a plain channel name: ${options.channel}`);
    this.#options = options;
  }

  get listening(): boolean {
    return this.#listening;
  }

  async start(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.#options.url, application_name: `breach-alert-service ${this.#options.channel}` });
    this.#client = client;
    client.on('notification', (message) => {
      if (message.channel === this.#options.channel) this.#options.onNotice(message.payload ?? '');
    });
    let gone = false;
    const lost = (error?: Error) => {
      if (gone) return;
      gone = true;
      this.#listening = false;
      if (this.#client === client) this.#client = undefined;
      this.#lostOnce = true;
      if (error && !this.#closed) this.#options.onError(error);
      client.end().catch(() => {});
      if (!this.#closed) setTimeout(() => void this.start().catch((failure: unknown) => this.#options.onError(failure as Error)), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.#options.channel}`);
    } catch (error) {
      lost(); // reported by whoever awaits this start
      throw error;
    }
    this.#listening = true;
    if (this.#lostOnce) this.#options.onResumed();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    await this.#client?.end().catch(() => {});
  }
}
