// Property tests are part of `npm test`, which must give the same answer twice: every fc.assert
// draws from one fixed seed. `FC_SEED=<n>` replays another seed; `FC_SEED=random` explores
// (fast-check then prints the seed of any failure, to be pinned as a regression example).
import fc from 'fast-check';

const chosen = process.env.FC_SEED;
if (chosen !== 'random') {
  const seed = chosen === undefined ? 20261124 : Number(chosen);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", not ${JSON.stringify(chosen)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
