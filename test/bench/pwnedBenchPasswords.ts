// The invented passwords of `npm run bench:import`'s Pwned Passwords figure, the same in the bench
// and in its stand-in's process: `count` distinct ones, one in five "seen" (count i + 1).
export function benchPasswords(count: number): { passwords: Map<string, string>; seen: Map<string, number> } {
  const passwords = new Map<string, string>();
  const seen = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const password = `bench password ${i} ${(i * 2654435761) % 4294967296}`;
    passwords.set(`login-${i}`, password);
    if (i % 5 === 0) seen.set(password, i + 1);
  }
  return { passwords, seen };
}
