import { isoFromText, orNull, type RowReading } from './exportedLogin.ts';
import { arrayAt, objectAt, stringAt } from './readItems.ts';

/** Bitwarden's cipher types (bitwarden/clients, libs/common/src/vault/enums/cipher-type.ts). */
const NOT_LOGINS: Record<number, string> = { 2: 'a secure note, not a login', 3: 'a card, not a login', 4: 'an identity, not a login', 5: 'an SSH key, not a login' };

/**
 * One item of Bitwarden's unencrypted JSON export (`{ encrypted: false, folders, items }`;
 * bitwarden/clients, libs/common/src/models/export/cipher.export.ts and login.export.ts): a
 * login is `type` 1 with `login.username`, `login.password`, `login.uris[].uri` (the first is
 * kept) and `login.passwordRevisionDate`.
 *
 * The password's change date is `passwordRevisionDate`, which Bitwarden sets when a login's
 * password is changed and leaves null until then. Null reads as unknown, not as `creationDate`:
 * an item moved into Bitwarden from elsewhere was "created" on the day of that import, not on
 * the day its password was chosen, and taking it would tell someone a breach came before a
 * change that never happened.
 */
export function readBitwardenItem(value: unknown): RowReading {
  const item = objectAt(value);
  if (!item) return { skip: 'not a readable item' };
  if (item.type !== 1) return { skip: (typeof item.type === 'number' && NOT_LOGINS[item.type]) || 'not a login' };
  const login = objectAt(item, 'login');
  const firstUri = objectAt(arrayAt(login, 'uris')[0]);
  const revised = stringAt(login, 'passwordRevisionDate');
  return {
    login: {
      title: orNull(stringAt(item, 'name') ?? undefined),
      url: orNull(stringAt(firstUri, 'uri') ?? undefined),
      username: stringAt(login, 'username') ?? '',
      password: stringAt(login, 'password') ?? '',
      passwordChangedAt: revised === null ? null : isoFromText(revised),
    },
  };
}
