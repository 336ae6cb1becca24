// The question table (test/search/questions.ts) answered the Search page's way: each question
// understood, its chips compiled to the filter, what is left ranked by the engine. The figures
// before and after are printed by `npm run eval:search` (docs/search.md has them).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate, HIBP_CATALOG, plainTextAnswerer, understoodAnswerer } from './evaluation.ts';
import { EVALUATION_NOW, QUESTIONS } from './questions.ts';

const catalogIds = new Set((JSON.parse(readFileSync(HIBP_CATALOG, 'utf8')) as { Name: string }[]).map((breach) => breach.Name));
const understood = understoodAnswerer(EVALUATION_NOW);

describe('the question table over the Have I Been Pwned catalog', () => {
  it('holds at least 30 questions, each once, naming only breaches of the catalog, each once', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(QUESTIONS.map((q) => q.question)).size).toBe(QUESTIONS.length);
    for (const { question, expected } of QUESTIONS) {
      expect(expected.length, question).toBeGreaterThan(0);
      expect(new Set(expected).size, question).toBe(expected.length);
      for (const id of expected) expect(catalogIds.has(id), `${question}: ${id}`).toBe(true);
    }
  });

  it('answers the placeholder question exactly: every breach that leaked passwords after 2020, nothing else, no 0 scores', () => {
    const placeholder = QUESTIONS[0]!;
    expect(placeholder.question).toBe('which of my breaches leaked passwords after 2020?');
    expect(understood(placeholder.question).sort()).toEqual([...placeholder.expected].sort());
    const { remaining, filter, scores } = understood.explain(placeholder.question);
    expect(remaining).toBe('');
    expect(filter).toEqual({ dataClasses: { $in: ['Passwords'] }, breachDate: { $gte: Date.parse('2021-01-01T00:00:00Z') / 1000 } });
    expect(scores.every((score) => score === 1)).toBe(true);
  });

  it('never counts a breach scoring 0 as a match', () => {
    for (const { question } of QUESTIONS) expect(Math.min(...understood.explain(question).scores), question).toBeGreaterThan(0);
  });

  it('answers the table far better than the question as plain text did', () => {
    const after = evaluate(QUESTIONS, understood);
    const before = evaluate(QUESTIONS, plainTextAnswerer());
    // Measured 2026-12-06 (npm run eval:search; docs/search.md): after, macro P 87 % R 96.5 %, micro
    // P 37 % R 98.5 %, 31 of 38 exact; the question as plain text: macro P 20 %, micro P 2.8 %, 4 exact.
    // ("stealer logs" is the isStealerLog flag since issue 36, which this fixture file never sets.)
    // Floors a little under them. Micro precision is low where free text remains ("dating" also
    // reaches "Dates of birth" and "dating back to"): the ranking's own OR of prefix terms.
    expect(after.macro.precision).toBeGreaterThan(0.85);
    expect(after.macro.recall).toBeGreaterThan(0.95);
    expect(after.micro.precision).toBeGreaterThan(0.3);
    expect(after.micro.recall).toBeGreaterThan(0.95);
    expect(after.exact).toBeGreaterThanOrEqual(30);
    expect(after.macro.precision).toBeGreaterThan(before.macro.precision * 3);
    expect(after.micro.precision).toBeGreaterThan(before.micro.precision * 10);
    expect(after.exact).toBeGreaterThan(before.exact);
  });
});
