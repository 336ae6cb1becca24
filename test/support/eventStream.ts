// A client of the realtime database's streaming reads (`Accept: text/event-stream`) for tests:
// events are queued as they arrive and taken one at a time, each wait failing with a clear message.

export interface StreamEvent {
  event: string;
  data: unknown;
}

export interface EventStreamClient {
  response: Response;
  /** The next event, skipping `keep-alive`; fails after `timeoutMs` naming what was awaited. */
  next(what: string, timeoutMs?: number): Promise<StreamEvent>;
  /** True once the server ended the stream. */
  ended(): boolean;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const queue: StreamEvent[] = [];
  const waiters: (() => void)[] = [];
  let done = false;
  const wake = () => waiters.splice(0).forEach((wakeUp) => wakeUp());
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
            const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
            if (event !== 'keep-alive') queue.push({ event, data: JSON.parse(data) });
            wake();
          }
        }
      } catch {
        // Aborted by close().
      } finally {
        done = true;
        wake();
      }
    })();
  }
  return {
    response,
    ended: () => done && queue.length === 0,
    async next(what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        if (done) throw new Error(`the stream ended while waiting for ${what}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return queue.shift()!;
    },
    close: () => abort.abort(),
  };
}
