// Server-sent events of a whole answer (https://html.spec.whatwg.org/multipage/server-sent-events.html),
// for tests of streams that end: blocks split at a blank line, `event:` and the `data:` lines
// (joined with a newline, as the specification does). For streams that stay open, see eventStream.ts.
import { expect } from 'vitest';

export interface ServerSentEvent {
  event: string | undefined;
  data: string;
}

/** Reads `response` to its end as server-sent events; fails unless it is a 200 of `text/event-stream`. */
export async function readServerSentEvents(response: Response): Promise<ServerSentEvent[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return (await response.text())
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      return {
        event: lines.find((line) => line.startsWith('event: '))?.slice(7),
        data: lines
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n'),
      };
    });
}
