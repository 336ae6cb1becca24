// A real EventSource (the WHATWG one a browser gives a page, as Node ships it behind
// --experimental-eventsource) in a child process: what a Firebase-style client of the realtime
// database's streaming reads is. It reconnects by itself when the service ends a stream, waiting
// what the stream's last `retry:` said. Each `open`, `error` and named event it sees is queued
// here, taken one at a time, each wait failing with a clear message.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface EventSourceEvent {
  /** `open`, `error`, or the event's name (`put`, `reconnect`, …). */
  type: string;
  data?: unknown;
}

export interface EventSourceClient {
  next(what: string, timeoutMs?: number): Promise<EventSourceEvent>;
  close(): Promise<void>;
}

const CHILD = `
const source = new EventSource(process.argv[1]);
const say = (event) => process.stdout.write(JSON.stringify(event) + '\\n');
source.onopen = () => say({ type: 'open' });
source.onerror = () => say({ type: 'error' });
for (const name of JSON.parse(process.argv[2])) source.addEventListener(name, (event) => say({ type: name, data: JSON.parse(event.data) }));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/** Opens `url` in an EventSource that listens for the events named in `events`. */
export function openEventSource(url: string, events: readonly string[]): EventSourceClient {
  const child = spawn(process.execPath, ['--experimental-eventsource', '--no-warnings', '-e', CHILD, url, JSON.stringify(events)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const queue: EventSourceEvent[] = [];
  const waiters: (() => void)[] = [];
  let exited = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    queue.push(JSON.parse(line) as EventSourceEvent);
    waiters.splice(0).forEach((wake) => wake());
  });
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      waiters.splice(0).forEach((wake) => wake());
      resolve();
    }),
  );
  return {
    async next(what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        if (exited) throw new Error(`the EventSource process exited while waiting for ${what}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return queue.shift()!;
    },
    async close() {
      child.stdin.end();
      await gone;
    },
  };
}
