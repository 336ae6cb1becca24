import type { Migration } from '../../storage/sqliteMigrate.ts';
import { updateToSchemaVersion10 } from './0010-api-tokens.ts';

/**
 * The search interface's API token file (`api-tokens.db` in the data folder), a database of its
 * own so a token check never waits on the breach store's write lock: its own list, run by the
 * project's one runner (shared/db/migrations.ts). Forward-only and append-only.
 */
export const API_TOKEN_MIGRATIONS: readonly Migration[] = [{ version: 10, name: 'api-tokens', up: updateToSchemaVersion10 }];
