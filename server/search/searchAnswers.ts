import type { ServerResponse } from 'node:http';
import {
  answerPieces,
  SearchCodes,
  type ChatCompletion,
  type ChatCompletionDelta,
  type NamespaceChatCompletion,
  type NamespaceChunk,
  type NamespaceSearchResult,
  type SearchChunk,
  type SearchResult,
} from '../../shared/search/index.ts';
import { envelopeJson, sendEnvelopeJson } from './envelope.ts';
import type { Note } from './retrieval.ts';
import { EventStream } from './sse.ts';

// The search interface's answers as sent: a prepared answer (cached per index revision by the
// routes) becomes JSON or an event stream; a chat completion gets its own id and time each time.

/** Said with every extractive answer: what it is built from. */
export const EXTRACTIVE_NOTE = {
  code: SearchCodes.extractiveAnswer,
  message: 'extractive answer: built from the retrieved chunks by the reference instance, which runs no language model; [n] cites the n-th chunk',
};
const MODEL = 'breach-monitor/extractive';

/** What a request's answer is made of, before anything that varies per request (ids, times). */
export type Prepared =
  | { kind: 'json'; json: string }
  | { kind: 'search-stream'; result: SearchResult | NamespaceSearchResult; notes: Note[] }
  | { kind: 'chat'; stream: boolean; query: string; chunks: SearchChunk[] | NamespaceChunk[]; errors: { instance_id: string; message: string }[]; answer: string; notes: Note[] }
  | { kind: 'legacy-search-stream'; json: string }
  | { kind: 'legacy-ai-stream'; answer: string };

/** About what a prepared answer holds in memory, in bytes (its text at two bytes a character), for the answer cache's budget. */
export function preparedSize(prepared: Prepared): number {
  switch (prepared.kind) {
    case 'json':
    case 'legacy-search-stream':
      return prepared.json.length * 2;
    case 'legacy-ai-stream':
      return prepared.answer.length * 2;
    case 'search-stream':
      return JSON.stringify(prepared.result).length * 2;
    case 'chat':
      return (JSON.stringify(prepared.chunks).length + prepared.answer.length + prepared.query.length) * 2;
  }
}

/** Sends a prepared answer: as JSON, or as the event stream the request asked for. */
export function sendPrepared(res: ServerResponse, prepared: Prepared, now: () => number): void {
  switch (prepared.kind) {
    case 'json':
      return sendEnvelopeJson(res, 200, prepared.json);
    case 'search-stream': {
      const stream = new EventStream(res);
      stream.send({ search_query: prepared.result.search_query, chunks: prepared.result.chunks, messages: prepared.notes }, 'chunks');
      stream.sendRaw(envelopeJson(prepared.result, prepared.notes));
      stream.done();
      return;
    }
    case 'chat':
      return chat(res, prepared, now);
    case 'legacy-search-stream': {
      const stream = new EventStream(res);
      stream.sendRaw(prepared.json);
      stream.done();
      return;
    }
    case 'legacy-ai-stream': {
      // Legacy streams carry only the generated response: no chunks event.
      const stream = new EventStream(res);
      for (const piece of answerPieces(prepared.answer)) stream.send({ response: piece });
      stream.done();
      return;
    }
  }
}

/** A chat completion carries its own id and creation time, so only its retrieval and answer are reused. */
function chat(res: ServerResponse, { stream: streaming, query, chunks, errors, answer, notes }: Extract<Prepared, { kind: 'chat' }>, now: () => number): void {
  const id = `chatcmpl-${Math.floor(now()).toString(36)}`;
  const created = Math.floor(now() / 1000);
  const messages = [EXTRACTIVE_NOTE, ...notes];
  if (!streaming) {
    // Bare, as the SDK reads it: no envelope around a successful completion.
    const completion: ChatCompletion | NamespaceChatCompletion = {
      id,
      object: 'chat.completion',
      created,
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
      chunks,
      search_query: query,
      messages,
      ...(errors.length > 0 ? { errors } : {}),
    };
    return sendEnvelopeJson(res, 200, JSON.stringify(completion));
  }
  const stream = new EventStream(res);
  stream.send({ search_query: query, chunks, messages }, 'chunks');
  const delta = (content: string | undefined, finish: string | null): ChatCompletionDelta => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: MODEL,
    choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
  });
  for (const piece of answerPieces(answer)) stream.send(delta(piece, null));
  stream.send(delta(undefined, 'stop'));
  stream.done();
}
