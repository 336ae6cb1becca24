// Whether the bundler can load here: vite, which builds the renderer (`npm start`) and runs the
// tests (vitest), stands on rolldown, whose native binding is an optional dependency. Installed
// with `npm ci --omit=optional` (to leave keytar out), the binding is left out too, and vite
// and vitest stop with "Cannot find native binding" and a stack trace. `npm test` runs this
// before anything else (a typecheck and lint that pass say nothing about it), and `npm start`
// asks it before building, so a person reads one thing to do instead.

/** Undefined when vite loads; otherwise what is wrong and how to mend it, in a sentence or two. */
async function bundlerProblem(): Promise<string | undefined> {
  try {
    await import('vite');
    return undefined;
  } catch (error) {
    const reason = whatFailed(error);
    return [
      `The bundler (vite, on rolldown) cannot load here: ${reason}`,
      'Its native binding is an optional dependency, which `npm ci --omit=optional` leaves out. Install with plain `npm ci`:',
      'keytar, also optional, is skipped by itself where it cannot build (no libsecret), and the app and the tests work without it (docs/testing.md).',
    ].join('\n');
  }
}

/**
 * The failure without the loader's own advice: rolldown's message goes on to "try `npm i` again
 * after removing both package-lock.json and node_modules", which contradicts ours (and loses the
 * lock file). Its first sentence says what failed.
 */
function whatFailed(error: unknown): string {
  return error instanceof Error ? error.message.split(/\.\s|\n/)[0]! : String(error);
}

/** Says what to do and exits 1 where the bundler cannot load; returns where it can. */
export async function exitUnlessBundlerLoads(): Promise<void> {
  const problem = await bundlerProblem();
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}

if (import.meta.main) await exitUnlessBundlerLoads();
