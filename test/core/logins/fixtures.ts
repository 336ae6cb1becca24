// Exports written the way Chrome and Firefox write them (invented logins, never real data).
// Chrome: `name,url,username,password,note`; Firefox: its nine columns, `timePasswordChanged` in
// milliseconds since 1970. Every field quoted, rows ending in CRLF.

function csv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map((field) => `"${field.replaceAll('"', '""')}"`).join(',')).join('\r\n') + '\r\n';
}

export interface FixtureLogin {
  url: string;
  username: string;
  password: string;
  /** When the password last changed (Firefox only); undefined: the export does not say. */
  changed?: string;
  title?: string;
}

export function chromeCsv(logins: readonly FixtureLogin[]): string {
  return csv([['name', 'url', 'username', 'password', 'note'], ...logins.map((login) => [login.title ?? '', login.url, login.username, login.password, ''])]);
}

export function firefoxCsv(logins: readonly FixtureLogin[]): string {
  return csv([
    ['url', 'username', 'password', 'httpRealm', 'formActionOrigin', 'guid', 'timeCreated', 'timeLastUsed', 'timePasswordChanged'],
    ...logins.map((login, i) => {
      const changed = login.changed ? String(Date.parse(login.changed)) : '';
      return [login.url, login.username, login.password, '', login.url, `{0000000${i}-aaaa-bbbb-cccc-dddddddddddd}`, changed || '1500000000000', changed || '1500000000000', changed];
    }),
  ]);
}
