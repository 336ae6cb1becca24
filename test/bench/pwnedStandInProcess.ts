// The Pwned Passwords stand-in in a process of its own for `npm run bench:import`, so the answers'
// padding and sorting (800–1,000 lines each) are not timed on the client's event loop: the real
// API is on another machine. It knows the bench's passwords (benchPasswords) and prints
// "listening <origin>" once ready.
import { startPwnedPasswordsStandIn } from '../support/pwnedPasswordsStandIn.ts';
import { benchPasswords } from './pwnedBenchPasswords.ts';

const count = Number(process.argv[2] ?? 2000);
const { seen } = benchPasswords(count);
const standIn = await startPwnedPasswordsStandIn(Object.fromEntries(seen));
// Nothing reads the record in this process: keep memory flat over repeated runs.
setInterval(() => (standIn.requests.length = 0), 1000).unref();
console.log(`listening ${standIn.origin}`);
process.on('SIGTERM', () => void standIn.close().then(() => process.exit(0)));
