export interface DemoUser {
  sub: string;
  email: string;
  name: string;
}

/** The only people the development identity provider knows; any non-empty password signs them in. */
export const DEMO_USERS: DemoUser[] = [
  { sub: 'alice', email: 'alice@example.com', name: 'Alice Example' },
  { sub: 'bob', email: 'bob@example.com', name: 'Bob Example' },
  { sub: 'carol', email: 'carol@example.com', name: 'Carol Example' },
];

export interface UserDirectory {
  readonly users: readonly DemoUser[];
  bySub(sub: string): DemoUser | undefined;
  byEmail(email: string): DemoUser | undefined;
  /** False once the account "no longer exists": no sign-in, no refresh. */
  isActive(sub: string): Promise<boolean>;
}

export function createUserDirectory(users: readonly DemoUser[], isAccountActive: (sub: string) => boolean | Promise<boolean> = () => true): UserDirectory {
  const bySub = new Map(users.map((user) => [user.sub, user]));
  const byEmail = new Map(users.map((user) => [normalizeEmail(user.email), user]));
  return {
    users,
    bySub: (sub) => bySub.get(sub),
    byEmail: (email) => byEmail.get(normalizeEmail(email)),
    isActive: async (sub) => bySub.has(sub) && (await isAccountActive(sub)),
  };
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
