// The question set by dimension (questionSet.ts) answered and scored: a question is right when
// its list is exactly the expected breaches (in order when the question asks for an order) and,
// for aggregate questions, the answer sentence is the expected one.
import Database from 'better-sqlite3';
import type { Breach } from '../../shared/api/breach.ts';
import * as search from '../../shared/search/index.ts';
import { compileFilters } from '../../renderer/features/search/compileFilters.ts';
import { withQuestion } from '../../renderer/features/search/questionChips.ts';
import { EmbeddedSearch } from '../../electron/core/search/EmbeddedSearch.ts';
import { EVALUATION_CHIPS } from './evaluation.ts';
import { DIMENSIONS, type Dimension, type FixtureBreach, type SetQuestion } from './questionSet.ts';

/** What the pipeline answered: the breaches in its order, and the sentence before them, if any. */
export interface Asked {
  ids: string[];
  sentence?: string | undefined;
}
export type Asker = (question: string) => Asked | Promise<Asked>;

/** The fixture account's breaches as the embedded engine indexes them. */
export function fixtureDocuments(account: readonly FixtureBreach[]): search.BreachSearchDocument[] {
  return account.map((record) => {
    const breach: Breach = {
      id: record.id,
      domain: record.domain,
      breachDate: record.breachDate,
      addedDate: record.addedDate,
      modifiedDate: record.modifiedDate,
      dataClasses: record.dataClasses,
      isSensitive: record.isSensitive,
    };
    return search.toSearchDocument(breach, record);
  });
}

/** The Search page's pipeline before issue 36: understood, chips compiled, what is left ranked; no order, no sentence. */
export function chipsAsker(account: readonly FixtureBreach[], now: number): Asker {
  const docs = fixtureDocuments(account);
  const index = new search.BreachSearchIndex(new Database(':memory:'));
  index.replaceAll(docs);
  const dataClasses = [...new Set(docs.flatMap((doc) => doc.dataClasses))];
  return (question) => {
    const { parts, remaining } = search.understandQuery(question, { now, dataClasses });
    const compiled = compileFilters(withQuestion(EVALUATION_CHIPS, parts));
    const filter = compiled === undefined ? undefined : search.parseMetadataFilter(compiled, search.BREACH_FILTER_FIELDS);
    return { ids: index.search({ query: remaining, filter, maxResults: docs.length }).map((hit) => hit.doc.id) };
  };
}

/** The fixture account's state as the app's core reads it from the local store. */
export function fixtureStates(account: readonly FixtureBreach[]): search.AccountStates {
  return new Map(account.map((breach) => [breach.id, { emails: breach.emails, resolution: breach.resolution, isNew: breach.isNew }]));
}

/**
 * The app's pipeline since issue 36: the question as the Search page sends it (no chip set by
 * hand, sensitive breaches counted), answered by the embedded engine over the fixture account —
 * understood there as on the reference service, the person's state read from the account.
 */
export function embeddedAsker(account: readonly FixtureBreach[], now: number): Asker & { close(): void } {
  const docs = fixtureDocuments(account);
  const states = fixtureStates(account);
  const engine = new EmbeddedSearch({ version: () => 1, documents: () => docs, account: () => states });
  const ask = async (question: string): Promise<Asked> => {
    const outcome = await engine.run({ query: question, answer: false, maxResults: docs.length, now });
    return { ids: outcome.chunks.map((chunk) => search.breachIdOfKey(chunk.item.key)!), sentence: outcome.sentence };
  };
  return Object.assign(ask, { close: () => engine.close() });
}

export interface Tally {
  right: number;
  total: number;
}
export interface SetScore {
  /** Per question, whether it was right, and what was answered. */
  questions: { question: SetQuestion; asked: Asked; right: boolean }[];
  byDimension: Record<Dimension, { all: Tally; core: Tally }>;
  overall: Tally;
}

export function isRight(question: SetQuestion, asked: Asked): boolean {
  const listRight = question.ordered
    ? asked.ids.length === question.expected.length && asked.ids.every((id, i) => id === question.expected[i])
    : asked.ids.length === question.expected.length && new Set(asked.ids).size === asked.ids.length && question.expected.every((id) => asked.ids.includes(id));
  return listRight && (question.sentence === undefined || asked.sentence === question.sentence);
}

export async function scoreSet(questions: readonly SetQuestion[], ask: Asker): Promise<SetScore> {
  const byDimension = Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, { all: { right: 0, total: 0 }, core: { right: 0, total: 0 } }])) as SetScore['byDimension'];
  const overall: Tally = { right: 0, total: 0 };
  const scored: SetScore['questions'] = [];
  for (const question of questions) {
    const asked = await ask(question.question);
    const right = isRight(question, asked);
    const tallies = [byDimension[question.dimension].all, overall, ...(question.form === 'core' || question.form === 'mixed' ? [byDimension[question.dimension].core] : [])];
    for (const tally of tallies) {
      tally.total += 1;
      if (right) tally.right += 1;
    }
    scored.push({ question, asked, right });
  }
  return { questions: scored, byDimension, overall };
}

const percent = (tally: Tally) => (tally.total === 0 ? '—' : `${((tally.right / tally.total) * 100).toFixed(1)} %`);

/** The per-dimension table, as `npm run eval:search` prints it. */
export function dimensionTable(score: SetScore): string {
  const rows = DIMENSIONS.map((dimension) => {
    const { all, core } = score.byDimension[dimension];
    return `| ${dimension} | ${all.right}/${all.total} | ${percent(all)} | ${core.right}/${core.total} | ${percent(core)} |`;
  });
  return [
    '| Dimension | Right | Accuracy | Core forms right | Core accuracy |',
    '| --------- | ----- | -------- | ---------------- | ------------- |',
    ...rows,
    `| **all** | ${score.overall.right}/${score.overall.total} | ${percent(score.overall)} | | |`,
  ].join('\n');
}
