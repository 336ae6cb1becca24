import { startCore } from '../core/app.ts';
import { runUtilityHost, type ParentPortLike } from './utilityHost.ts';

// Entry of the utility process (see coreProcess.ts); built as its own chunk next to index.js.
void runUtilityHost({
  parentPort: process.parentPort as unknown as ParentPortLike,
  argv: process.argv,
  startCore,
  exit: (code) => process.exit(code),
});
