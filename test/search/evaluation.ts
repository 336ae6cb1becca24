// The question table's machinery, shared by its test and by `npm run eval:search`: the catalog as
// search documents, the two ways of answering a question (the engine given the question as plain
// text, as before query understanding; and the Search page's way now: understood, chips compiled,
// what is left ranked), and precision/recall over the answers.
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadCatalogFile } from '../../server/catalog/source.ts';
import * as search from '../../shared/search/index.ts';
import { compileFilters, NO_CHIPS, type SearchChips } from '../../renderer/features/search/compileFilters.ts';
import type { Question } from './questions.ts';

export const HIBP_CATALOG = path.resolve(import.meta.dirname, '../../../shared/fixtures/hibp/breaches.json');

/** What a question's answer is taken to be: every breach the engine calls a match. */
export type Answerer = (question: string) => string[];

/** The parts of shared/search an answerer needs; the "before" run passes another checkout's. */
type SearchModule = Pick<typeof search, 'BreachSearchIndex' | 'toSearchDocument'>;

function indexOf(module: SearchModule) {
  const source = loadCatalogFile(HIBP_CATALOG);
  const docs = source.breaches.map((breach) => module.toSearchDocument(breach, source.details[breach.id]));
  const index = new module.BreachSearchIndex(new Database(':memory:'));
  index.replaceAll(docs);
  return { index, docs, dataClasses: [...new Set(source.breaches.flatMap((breach) => breach.dataClasses))] };
}

/** The engine given the question as plain text, no filter: what the Search page did before. */
export function plainTextAnswerer(module: SearchModule = search): Answerer {
  const { index, docs } = indexOf(module);
  return (question) => index.search({ query: question, maxResults: docs.length }).map((hit) => hit.doc.id);
}

/**
 * The chips the evaluation starts from: none set by hand, and sensitive breaches counted (the
 * table's answers include them unless a question says otherwise), whatever the page's default.
 */
export const EVALUATION_CHIPS: SearchChips = { ...NO_CHIPS, sensitive: 'any' };

/**
 * The Search page's way: the question understood (shared/search/ask.ts, as both engines do), its
 * filter applied, what is left ranked, the order asked kept.
 */
export function understoodAnswerer(now: number): Answerer & { explain(question: string): { remaining: string; filter: search.MetadataFilter | undefined; scores: number[] } } {
  const { index, docs, dataClasses } = indexOf(search);
  const hand = compileFilters(EVALUATION_CHIPS);
  const run = (question: string) => {
    const plan = search.planAsk(question, { now, dataClasses, names: index.names() });
    const found = index.search({ query: plan.ranked, filter: hand, maxResults: docs.length });
    const { hits } = search.finishAsk(plan, found, docs.length);
    return { remaining: plan.remaining, filter: search.questionFilter(plan.parts), hits };
  };
  return Object.assign((question: string) => run(question).hits.map((hit) => hit.doc.id), {
    explain: (question: string) => {
      const { remaining, filter, hits } = run(question);
      return { remaining, filter, scores: hits.map((hit) => hit.score) };
    },
  });
}

export interface QuestionScore {
  question: string;
  expected: number;
  answered: number;
  correct: number;
  /** Of the answer, how much is right (1 for an empty answer to a question with no answer, 0 for an empty one otherwise). */
  precision: number;
  /** Of the right answer, how much was found. */
  recall: number;
}

export interface Evaluation {
  questions: QuestionScore[];
  /** Means over questions. */
  macro: { precision: number; recall: number };
  /** Over all answers together (every breach named counts once per question). */
  micro: { precision: number; recall: number };
  /** Questions answered exactly. */
  exact: number;
}

export function evaluate(questions: readonly Question[], answer: Answerer): Evaluation {
  const scored = questions.map(({ question, expected }): QuestionScore => {
    const got = new Set(answer(question));
    const correct = expected.filter((id) => got.has(id)).length;
    return {
      question,
      expected: expected.length,
      answered: got.size,
      correct,
      precision: got.size === 0 ? (expected.length === 0 ? 1 : 0) : correct / got.size,
      recall: expected.length === 0 ? 1 : correct / expected.length,
    };
  });
  const sum = (pick: (score: QuestionScore) => number) => scored.reduce((total, score) => total + pick(score), 0);
  return {
    questions: scored,
    macro: { precision: sum((s) => s.precision) / scored.length, recall: sum((s) => s.recall) / scored.length },
    micro: {
      precision:
        sum((s) => s.correct) /
        Math.max(
          1,
          sum((s) => s.answered),
        ),
      recall:
        sum((s) => s.correct) /
        Math.max(
          1,
          sum((s) => s.expected),
        ),
    },
    exact: scored.filter((s) => s.correct === s.expected && s.answered === s.expected).length,
  };
}
