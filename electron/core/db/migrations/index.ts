import { updateToSchemaVersion10 } from './0010-initial-schema.ts';
import { updateToSchemaVersion20 } from './0020-data-class-slug-keys.ts';
import { updateToSchemaVersion30 } from './0030-local-only-intents.ts';
import { updateToSchemaVersion40 } from './0040-outbox-in-doubt.ts';
import { updateToSchemaVersion50 } from './0050-breach-data.ts';
import { updateToSchemaVersion60 } from './0060-outbox-without-state-index.ts';
import { updateToSchemaVersion70 } from './0070-user-emails.ts';
import { updateToSchemaVersion80 } from './0080-logins.ts';
import type { Migration } from './types.ts';

export type { Migration } from './types.ts';

/** Every migration, in order. Append only: a released step never changes. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 10, name: 'initial-schema', up: updateToSchemaVersion10 },
  { version: 20, name: 'data-class-slug-keys', up: updateToSchemaVersion20 },
  { version: 30, name: 'local-only-intents', up: updateToSchemaVersion30 },
  { version: 40, name: 'outbox-in-doubt', up: updateToSchemaVersion40 },
  { version: 50, name: 'breach-data', up: updateToSchemaVersion50 },
  { version: 60, name: 'outbox-without-state-index', up: updateToSchemaVersion60 },
  { version: 70, name: 'user-emails', up: updateToSchemaVersion70 },
  { version: 80, name: 'logins', up: updateToSchemaVersion80 },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
