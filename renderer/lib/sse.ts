export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Incremental `text/event-stream` parser (the WHATWG rules we need: `event`, multi-line `data`,
 * comments, any line ending). Fed decoded chunks as they arrive, since a chunk may end anywhere.
 */
export class SseParser {
  #buffer = '';
  #event = '';
  #data: string[] = [];
  readonly #onMessage: (message: SseMessage) => void;

  constructor(onMessage: (message: SseMessage) => void) {
    this.#onMessage = onMessage;
  }

  push(chunk: string): void {
    this.#buffer += chunk;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      if (!match) return;
      // A lone trailing "\r" may be the first half of "\r\n": wait for the next chunk.
      if (match[0] === '\r' && match.index === this.#buffer.length - 1) return;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      this.#line(line);
    }
  }

  #line(line: string): void {
    if (line === '') {
      if (this.#data.length > 0) this.#onMessage({ event: this.#event || 'message', data: this.#data.join('\n') });
      this.#event = '';
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
  }
}
