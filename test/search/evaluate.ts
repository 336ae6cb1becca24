// npm run eval:search [-- --before <git ref>] — precision and recall of the question table
// (test/search/questions.ts) before query understanding and after. "Before" is the engine of
// another checkout given each question as plain text, as the Search page sent it (by default
// a767621, the last commit before query understanding; any ref works): the ref is checked out into a temporary worktree outside the repository, its
// shared/search loaded from there, and the worktree removed. "After" is this checkout's Search
// page pipeline (understood, chips compiled, what is left ranked).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { evaluate, plainTextAnswerer, understoodAnswerer, type Evaluation } from './evaluation.ts';
import { EVALUATION_NOW, QUESTIONS } from './questions.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The last commit before query understanding (issue 25): the Search page sent the question as text. */
const BEFORE_UNDERSTANDING = 'a767621';

async function before(ref: string): Promise<Evaluation> {
  const dir = mkdtempSync(path.join(tmpdir(), 'search-eval-before-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  git('worktree', 'add', '--detach', dir, ref);
  try {
    // Its modules resolve packages (zod) from here, as this checkout's do.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const module = (await import(pathToFileURL(path.join(dir, 'shared/search/index.ts')).href)) as Parameters<typeof plainTextAnswerer>[0];
    return evaluate(QUESTIONS, plainTextAnswerer(module));
  } finally {
    git('worktree', 'remove', '--force', dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const cell = (score: Evaluation['questions'][number]) => `${score.correct}/${score.answered} · P ${score.precision.toFixed(2)} R ${score.recall.toFixed(2)}`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { before: { type: 'string', default: BEFORE_UNDERSTANDING } } });
  const old = await before(values.before);
  const now = evaluate(QUESTIONS, understoodAnswerer(EVALUATION_NOW));
  console.log(`${QUESTIONS.length} questions over the Have I Been Pwned catalog; before: ${values.before}, the question as plain text; after: this checkout, understood.\n`);
  console.log('| # | Question | Expected | Before (right/answered) | After (right/answered) |');
  console.log('| - | -------- | -------- | ----------------------- | ---------------------- |');
  now.questions.forEach((score, i) => console.log(`| ${i + 1} | ${score.question} | ${score.expected} | ${cell(old.questions[i]!)} | ${cell(score)} |`));
  console.log('\n|  | Precision (macro) | Recall (macro) | Precision (micro) | Recall (micro) | Exact answers |');
  console.log('| - | ----------------- | -------------- | ----------------- | -------------- | ------------- |');
  for (const [name, run] of [
    ['Before', old],
    ['After', now],
  ] as const)
    console.log(
      `| ${name} | ${percent(run.macro.precision)} | ${percent(run.macro.recall)} | ${percent(run.micro.precision)} | ${percent(run.micro.recall)} | ${run.exact} of ${run.questions.length} |`,
    );
}

await main();
