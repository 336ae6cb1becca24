// Two devices of one person (two tokens, same subject) resolving at the same time: no errors,
// and the final state is what the requests imply (union, or last writer per key).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Breach } from '../../shared/api/index.ts';
import { type HttpResult, resolvedKeys, type TestUser, useClient } from './client.ts';

const client = useClient();

const CLASSES = ['Email addresses', 'IP addresses', 'Passwords', 'Usernames'];

interface Item {
  breachId: string;
  dataClasses: string[];
  resolved: boolean;
  emails?: string[];
}

/** Deterministic pseudo-random numbers (mulberry32), so every run sends the same requests. */
function rng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const subset = <T>(values: readonly T[]): T[] => {
    const picked = values.filter(() => next() < 0.5);
    return picked.length > 0 ? picked : [values[int(values.length)]!];
  };
  const bool = () => next() < 0.5;
  return { next, int, subset, bool };
}

type Rng = ReturnType<typeof rng>;

let breaches: Breach[];

beforeAll(async () => {
  breaches = [];
  for (let i = 0; i < 4; i += 1) breaches.push(await client.addBreach({ dataClasses: CLASSES, breachDate: `202${i}-06-01` }));
});

/** A user monitoring three emails, each affected by every fixture breach, and a second device. */
async function twoDevices(): Promise<{ user: TestUser; deviceA: string; deviceB: string }> {
  const user = await client.newUser({ emails: 3 });
  for (const email of user.emails)
    await client.putExposures(
      email,
      breaches.map((breach) => breach.id),
    );
  const deviceB = await client.token(user.sub, { email: user.emails[0]! });
  return { user, deviceA: user.token, deviceB };
}

const keyOf = (breachId: string, email: string, dataClass: string) => `${breachId}|${email}|${dataClass}`;

/** The (breach, email, class) keys an item targets; class names are matched case-insensitively. */
function keysOf(item: Item, emails: readonly string[]): string[] {
  const classes = [...new Set(item.dataClasses.map((name) => CLASSES.find((c) => c.toLowerCase() === name.toLowerCase())!))];
  return (item.emails ?? emails).flatMap((email) => classes.map((dataClass) => keyOf(item.breachId, email, dataClass)));
}

function randomItem(random: Rng, breachIds: readonly string[], emails: readonly string[], resolved?: boolean): Item {
  const item: Item = {
    breachId: breachIds[random.int(breachIds.length)]!,
    dataClasses: random.subset(CLASSES).map((name) => (random.bool() ? name : name.toUpperCase())),
    resolved: resolved ?? random.bool(),
  };
  if (random.bool()) item.emails = random.subset(emails);
  return item;
}

/** A request of one to three items with distinct breach ids. */
function randomRequest(random: Rng, breachIds: readonly string[], emails: readonly string[], resolved?: boolean): Item[] {
  const count = 1 + random.int(Math.min(3, breachIds.length));
  const items: Item[] = [];
  for (const id of random.subset(breachIds).slice(0, count)) items.push({ ...randomItem(random, [id], emails, resolved) });
  return items;
}

function apply(model: Map<string, boolean>, request: Item[], emails: readonly string[]): void {
  for (const item of request) for (const key of keysOf(item, emails)) model.set(key, item.resolved);
}

const resolvedIn = (model: Map<string, boolean>) =>
  [...model]
    .filter(([, resolved]) => resolved)
    .map(([key]) => key)
    .sort();

async function observed(token: string): Promise<string[]> {
  const items = await client.listOf(
    token,
    breaches.map((breach) => breach.id),
  );
  for (const item of items) {
    for (const account of item.breachedAccounts) {
      for (const state of Object.values(account.resolvedDataClasses)) expect(state.resolvedAt).toBeTypeOf('string');
    }
  }
  return resolvedKeys(items);
}

function expectAllNoContent(results: HttpResult[]): void {
  const failures = results.filter((result) => result.status !== 204).map((result) => `${result.status} ${result.text}`);
  expect(failures).toEqual([]);
}

describe('two devices resolving concurrently', () => {
  it('overlapping resolved:true requests, all in flight at once → the union, no errors', async () => {
    const { user, deviceA, deviceB } = await twoDevices();
    const random = rng(1);
    const ids = breaches.map((breach) => breach.id);
    const requests = Array.from({ length: 40 }, () => randomRequest(random, ids, user.emails, true));
    const results = await Promise.all(requests.map((request, i) => client.resolve(i % 2 === 0 ? deviceA : deviceB, request)));
    expectAllNoContent(results);
    const model = new Map<string, boolean>();
    for (const request of requests) apply(model, request, user.emails);
    expect(await observed(deviceA)).toEqual(resolvedIn(model));
    expect(await observed(deviceB)).toEqual(resolvedIn(model));
  });

  it('disjoint keys, each written by exactly one in-flight request → exactly those values', async () => {
    const { user, deviceA, deviceB } = await twoDevices();
    const random = rng(2);
    // Start with everything resolved, so both directions are exercised.
    await client.resolveOk(
      deviceA,
      breaches.map((breach) => ({ breachId: breach.id, dataClasses: CLASSES, resolved: true })),
    );
    const requests: Item[][] = [];
    for (const breach of breaches) {
      for (const email of user.emails) {
        const first = CLASSES.filter(() => random.bool());
        const second = CLASSES.filter((name) => !first.includes(name));
        for (const group of [first, second]) {
          if (group.length > 0) requests.push([{ breachId: breach.id, dataClasses: group, resolved: random.bool(), emails: [email] }]);
        }
      }
    }
    const results = await Promise.all(requests.map((request, i) => client.resolve(i % 2 === 0 ? deviceA : deviceB, request)));
    expectAllNoContent(results);
    const model = new Map<string, boolean>();
    for (const request of requests) apply(model, request, user.emails);
    expect(model.size).toBe(breaches.length * user.emails.length * CLASSES.length);
    expect(await observed(deviceB)).toEqual(resolvedIn(model));
  });

  it('each device works through its own sequence on disjoint breaches, interleaved → each device’s last write per key', async () => {
    const { user, deviceA, deviceB } = await twoDevices();
    const random = rng(3);
    const ids = breaches.map((breach) => breach.id);
    const sequences = [ids.slice(0, 2), ids.slice(2)].map((own) => Array.from({ length: 25 }, () => randomRequest(random, own, user.emails)));
    const run = async (token: string, sequence: Item[][]) => {
      const results: HttpResult[] = [];
      for (const request of sequence) results.push(await client.resolve(token, request));
      return results;
    };
    const [a, b] = await Promise.all([run(deviceA, sequences[0]!), run(deviceB, sequences[1]!)]);
    expectAllNoContent([...a!, ...b!]);
    const model = new Map<string, boolean>();
    for (const sequence of sequences) for (const request of sequence) apply(model, request, user.emails);
    expect(await observed(deviceA)).toEqual(resolvedIn(model));
  });

  it('both devices on the same keys, interleaved → every key ends at one device’s last write', async () => {
    const { user, deviceA, deviceB } = await twoDevices();
    const random = rng(4);
    const ids = breaches.map((breach) => breach.id);
    const sequences = [0, 1].map(() => Array.from({ length: 25 }, () => randomRequest(random, ids, user.emails)));
    const run = async (token: string, sequence: Item[][]) => {
      const results: HttpResult[] = [];
      for (const request of sequence) results.push(await client.resolve(token, request));
      return results;
    };
    const [a, b] = await Promise.all([run(deviceA, sequences[0]!), run(deviceB, sequences[1]!)]);
    expectAllNoContent([...a!, ...b!]);

    const lastA = new Map<string, boolean>();
    const lastB = new Map<string, boolean>();
    for (const request of sequences[0]!) apply(lastA, request, user.emails);
    for (const request of sequences[1]!) apply(lastB, request, user.emails);
    const resolved = new Set(await observed(deviceA));
    const keys = new Set([...lastA.keys(), ...lastB.keys()]);
    for (const key of resolved) expect(keys.has(key), `${key} was never written`).toBe(true);
    for (const key of keys) {
      const allowed = new Set([lastA.get(key), lastB.get(key)].filter((value) => value !== undefined));
      expect(allowed.has(resolved.has(key)), `${key}: ${resolved.has(key)} is neither device's last write`).toBe(true);
    }
  });
});
