// A client process for the soak: the core (store + outbox + sync) on one database file,
// driven over IPC. The harness kills it with SIGKILL at random points and starts another on
// the same file. A reply to `toggle` is sent only after the transaction committed.
import { dataClassKey, MONITOR_SCOPE } from '../../shared/api/index.ts';
import { DetailsStore } from '../../electron/core/feed/DetailsStore.ts';
import { RealtimeDatabaseClient } from '../../electron/core/feed/RealtimeDatabaseClient.ts';
import { syncCatalogDetails } from '../../electron/core/feed/syncCatalogDetails.ts';
import { outboxRows } from '../../electron/core/db/outboxQueries.ts';
import { getLocalBreach, queryBreaches } from '../../electron/core/queries/localQueries.ts';
import { openAccountSync } from '../../electron/core/sync/openAccountSync.ts';
import { DevTokenSource } from '../core/helpers/devTokens.ts';
import type { Target, WorkerArgs, WorkerCommand, WorkerReply } from './protocol.ts';

const args = JSON.parse(process.argv[2]!) as WorkerArgs;
const firefox = args.contract === 'firefox-v1';
// The newer contract's details come from the service's feed (not through the fault proxy: the
// soak is about the breach-alert mount), kept beside the account database as the app keeps it.
const details = firefox ? new DetailsStore(args.db + '.details.db') : undefined;
const feed = new RealtimeDatabaseClient({ url: `${args.serviceOrigin}/rtdb`, credential: { kind: 'none' } });
const sync = openAccountSync({
  file: args.db,
  apiBaseUrl: args.apiBaseUrl,
  ...(details ? { contract: 'firefox-v1' as const, details: { getMany: (ids: readonly string[]) => details.getMany(ids), refresh: async () => void (await syncCatalogDetails(feed, details)) } } : {}),
  tokens: new DevTokenSource(args.serviceOrigin, args.sub, undefined, firefox ? `openid email ${MONITOR_SCOPE}` : undefined),
  // Small waits keep the soak short; Retry-After from the proxy is still honoured in full.
  backoff: { baseMs: 20, capMs: 400 },
  pushDelayMs: -1,
  timeoutMs: 5000,
});

function run(command: WorkerCommand): unknown {
  switch (command.op) {
    case 'toggle':
      return sync.outbox.record([{ breachId: command.breachId, ...(command.email ? { emails: [command.email] } : {}), dataClasses: [command.dataClass], resolved: command.resolved }]);
    case 'sync':
      return sync.scheduler.syncNow('manual');
    case 'flush':
      return sync.outbox.flush();
    case 'targets':
      return queryBreaches(sync.database.db, { includeSensitive: true, limit: 10_000 }).items.flatMap((item) =>
        item.breachedAccounts.map((account): Target => ({ breachId: item.breach.id, email: account.email, dataClasses: item.breach.dataClasses })),
      );
    case 'state':
      return command.keys.map((key) => {
        const [breachId, email, classKey] = key.split('|') as [string, string, string];
        const account = getLocalBreach(sync.database.db, breachId, { email })?.breachedAccounts[0];
        if (account) return Object.keys(account.resolvedDataClasses).some((name) => dataClassKey(name) === classKey);
        // The pair left the local store (a pull after the email was removed): the outbox still holds the intent.
        const row = outboxRows(sync.database.db).find((r) => r.breachId === breachId && r.email === email && r.classKey === classKey);
        return row ? row.resolved : null;
      });
    case 'failed':
      return sync.outbox.items('failed').map((item) => ({ key: `${item.breachId}|${item.email}|${dataClassKey(item.dataClass)}`, reason: item.failure?.reason ?? '' }));
    case 'summary':
      return { ...sync.outbox.summary(), local: sync.outbox.items().filter((item) => item.state === 'local').length };
  }
}

process.on('message', (message: WorkerCommand) => {
  void (async () => {
    let reply: WorkerReply;
    try {
      reply = { id: message.id, ok: true, value: await run(message) };
    } catch (error) {
      reply = { id: message.id, ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
    process.send?.(reply);
  })();
});
process.on('disconnect', () => {
  void sync.close().then(() => {
    details?.close();
    process.exit(0);
  });
});
process.send?.({ ready: true });
