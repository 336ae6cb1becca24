import type { Migration } from '../../storage/sqliteMigrate.ts';
import { updateToSchemaVersion10 } from './0010-oidc-entities.ts';
import { updateToSchemaVersion20 } from './0020-hashed-ids.ts';
import { updateToSchemaVersion30 } from './0030-interaction-clients.ts';

/**
 * The development identity provider's file (`identity/provider.db`), a database of its own: its
 * own list, run by the project's one runner (shared/db/migrations.ts). Forward-only and
 * append-only.
 */
export const OIDC_MIGRATIONS: readonly Migration[] = [
  { version: 10, name: 'oidc-entities', up: updateToSchemaVersion10 },
  { version: 20, name: 'hashed-ids', up: updateToSchemaVersion20 },
  { version: 30, name: 'interaction-clients', up: updateToSchemaVersion30 },
];
