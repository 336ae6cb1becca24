import type { SearchChunk } from './api.ts';

/** How many chunks an extractive answer quotes. */
const QUOTED = 3;

function firstSentence(text: string): string {
  const match = /^(.{20,}?[.!?])(\s|$)/.exec(text);
  const sentence = match ? match[1]! : text;
  return sentence.length > 240 ? sentence.slice(0, 237).trimEnd() + '…' : sentence;
}

/**
 * The reference instance's answer: no language model runs here, so the answer is built from the
 * retrieved chunks, deterministically, each statement citing its chunk as `[n]` (n counts from 1
 * in `chunks` order). Say so to the reader: `SearchCodes.extractiveAnswer` in `messages`.
 */
export function extractiveAnswer(query: string, chunks: readonly SearchChunk[]): string {
  // No words left to rank (the app turned the whole question into filter chips): the filter decided.
  const what = query.trim() === '' ? 'the filters' : `"${query}"`;
  if (chunks.length === 0) return `No breach in the catalog matches ${what}.`;
  const count = chunks.length === 1 ? 'One breach matches' : `${chunks.length} breaches match`;
  const lines = chunks.slice(0, QUOTED).map((chunk, index) => {
    const { title, breachDate, dataClasses } = chunk.item.metadata;
    const year = new Date(breachDate * 1000).getUTCFullYear();
    const body = chunk.text.startsWith(title) ? chunk.text.slice(title.length).replace(/^\s*(\([^)]*\))?\.\s*/, '') : chunk.text;
    const summary = body && !body.startsWith('Compromised data:') ? firstSentence(body) : `Exposed ${dataClasses.slice(0, 4).join(', ').toLowerCase() || 'data'}.`;
    return `${title} (${year}): ${summary} [${index + 1}]`;
  });
  const more = chunks.length > QUOTED ? `\n…and ${chunks.length - QUOTED} more.` : '';
  return `${count} ${what}:\n${lines.join('\n')}${more}`;
}

/** An answer cut into stream pieces (words with their following space), so a reader sees it grow. */
export function answerPieces(answer: string, size = 4): string[] {
  const words = answer.match(/\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += size) pieces.push(words.slice(i, i + size).join(''));
  return pieces;
}
