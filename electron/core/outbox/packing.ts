import { Limits, type ResolutionItem } from '../../../shared/api/index.ts';

/** One intent to send: the unit the packer covers and the isolator can blame. */
export interface IntentAtom {
  breachId: string;
  email: string;
  classKey: string;
  dataClass: string;
  resolved: boolean;
}

/** A request item and exactly the intents it carries (its emails × its data classes). */
export interface PackedItem<A extends IntentAtom = IntentAtom> {
  item: ResolutionItem;
  atoms: A[];
}

export type PackedRequest<A extends IntentAtom = IntentAtom> = PackedItem<A>[];

export interface PackLimits {
  maxItems: number;
  maxDataClassesPerItem: number;
  maxEmailsPerItem: number;
  /** Serialized request size; kept under the service's 1 MiB with room for the other headers' sake. */
  maxBodyBytes: number;
}

export const CONTRACT_LIMITS: PackLimits = {
  maxItems: Limits.maxItems,
  maxDataClassesPerItem: Limits.maxDataClassesPerItem,
  maxEmailsPerItem: Limits.maxEmailsPerItem,
  maxBodyBytes: Limits.maxBodyBytes - 64 * 1024,
};

/**
 * Packs intents into as few contract-valid requests as it can. Each atom must be a distinct
 * (breach, email, data class).
 *
 * Items: per breach and direction, emails that want the same set of classes share one item.
 * Requests: a breach may appear once per request, so a breach with g items needs g requests,
 * and n items need ⌈n / maxItems⌉; R = the larger of the two is also enough. A request over the byte limit (only with extreme
 * emails or names) is halved until it fits.
 *
 * Which items share a request: runs of neighbours in storage. `position` says where an atom's
 * row is stored (the outbox passes its row id; by default, the order given); breaches are taken
 * in the order of their first row and fill the requests one after the other, a breach of several
 * items taking the next requests with room (so a request may hold more than ⌈n / R⌉, never more
 * than maxItems). Settling a request then deletes rows that share
 * pages, instead of a third of the rows of every page of the table once per request: fewer
 * pages written to the WAL per flush (docs/decisions/0236-requests-runs-neighbouring-rows.md). Should that fill leave a breach
 * without enough distinct requests with room, every breach is spread over the least-loaded
 * requests instead, which always fits.
 */
export function packIntents<A extends IntentAtom>(atoms: readonly A[], limits: PackLimits = CONTRACT_LIMITS, position?: (atom: A) => number): PackedRequest<A>[] {
  const items = buildItems(atoms, limits);
  if (items.length === 0) return [];
  let positionOf = position;
  if (!positionOf) {
    const given = new Map<A, number>(atoms.map((atom, index) => [atom, index]));
    positionOf = (atom) => given.get(atom)!;
  }
  // Items come grouped by breach, breaches in order: one pass finds each breach's run and its first row.
  const runs: BreachRun[] = [];
  let widest = 0;
  for (let start = 0, end = 0; start < items.length; start = end) {
    let at = Infinity;
    while (end < items.length && items[end]!.item.breachId === items[start]!.item.breachId) {
      for (const atom of items[end]!.atoms) at = Math.min(at, positionOf(atom));
      end++;
    }
    runs.push({ start, end, at });
    widest = Math.max(widest, end - start);
  }
  const count = Math.max(widest, Math.ceil(items.length / limits.maxItems));
  const requests = inStorageOrder(items, runs, count, limits.maxItems) ?? leastLoaded(items, runs, count);
  return requests.flatMap((request) => fitBytes(request, limits));
}

/** A breach's items, `items[start, end)`, and where its first row is stored. */
interface BreachRun {
  start: number;
  end: number;
  at: number;
}

/**
 * Takes breaches in storage order, a run of ⌈breaches / count⌉ of them per request: each breach's
 * first item goes to its run's request, each other item to the nearest request (the next, the
 * previous, then further) that the breach is not in yet (a breach appears once per request) and
 * that holds fewer than ⌈n / count⌉ items, or failing that fewer than `maxItems`. Neighbouring
 * requests hold neighbouring rows, so a breach split over two still dirties pages of the same
 * stretch of the table. Undefined when a breach finds no request with room, or a request is left
 * empty; neither is expected.
 */
function inStorageOrder<A extends IntentAtom>(items: readonly PackedItem<A>[], runs: readonly BreachRun[], count: number, maxItems: number): PackedRequest<A>[] | undefined {
  const perRequest = Math.ceil(runs.length / count);
  const share = Math.ceil(items.length / count);
  const requests: PackedRequest<A>[] = Array.from({ length: count }, () => []);
  const usedBy = new Array<number>(count).fill(-1);
  const ordered = [...runs].sort((a, b) => a.at - b.at);
  const fits = (q: number, breach: number, limit: number): boolean => q >= 0 && q < count && usedBy[q] !== breach && requests[q]!.length < limit;
  const nearest = (home: number, breach: number): number => {
    for (const limit of [share, maxItems]) {
      for (let distance = 1; distance < count; distance++) {
        if (fits(home + distance, breach, limit)) return home + distance;
        if (fits(home - distance, breach, limit)) return home - distance;
      }
    }
    return -1;
  };

  for (let r = 0; r < ordered.length; r++) {
    const { start, end } = ordered[r]!;
    const home = Math.floor(r / perRequest);
    for (let i = start; i < end; i++) {
      const target = i === start && requests[home]!.length < maxItems ? home : nearest(home, r);
      if (target < 0) return undefined;
      requests[target]!.push(items[i]!);
      usedBy[target] = r;
    }
  }
  return requests.every((request) => request.length > 0) ? requests : undefined;
}

/** Each breach's items to its g least-loaded requests: loads stay within one of each other, so none exceeds ⌈n / count⌉. */
function leastLoaded<A extends IntentAtom>(items: readonly PackedItem<A>[], runs: readonly BreachRun[], count: number): PackedRequest<A>[] {
  const requests: PackedRequest<A>[] = Array.from({ length: count }, () => []);
  const order = requests.map((_, index) => index);
  for (const { start, end } of runs) {
    if (end - start === 1) {
      // Most breaches make one item: the least-loaded request (the first of equals) takes it.
      let least = 0;
      for (let r = 1; r < count; r++) if (requests[r]!.length < requests[least]!.length) least = r;
      requests[least]!.push(items[start]!);
      continue;
    }
    order.sort((a, b) => requests[a]!.length - requests[b]!.length || a - b);
    for (let i = start; i < end; i++) requests[order[i - start]!]!.push(items[i]!);
  }
  return requests;
}

/**
 * The items for a set of intents, before they are spread over requests: grouped by breach, in
 * breach order. Thousands of intents per flush, in one sort by (breach, email, class): a flush
 * claims its rows in that order, so the sort only confirms it; every group below is then a run
 * of neighbours, built in order, with no keys sorted again.
 */
export function buildItems<A extends IntentAtom>(atoms: readonly A[], limits: PackLimits = CONTRACT_LIMITS): PackedItem<A>[] {
  const sorted = [...atoms].sort(byCell);
  const items: PackedItem<A>[] = [];
  const wanted: A[] = [];
  let end: number;
  for (let start = 0; start < sorted.length; start = end) {
    const breachId = sorted[start]!.breachId;
    end = start + 1;
    while (end < sorted.length && sorted[end]!.breachId === breachId) {
      // The same (breach, email, class) twice, in either direction: neighbours once sorted.
      if (sorted[end]!.email === sorted[end - 1]!.email && sorted[end]!.classKey === sorted[end - 1]!.classKey) {
        throw new Error(`packIntents: intent for ${breachId}/${sorted[end]!.email}/${sorted[end]!.classKey} given twice`);
      }
      end++;
    }
    for (const resolved of [true, false]) {
      wanted.length = 0;
      let oneEmail = true;
      for (let i = start; i < end; i++) {
        const atom = sorted[i]!;
        if (atom.resolved !== resolved) continue;
        if (wanted.length > 0 && atom.email !== wanted[0]!.email) oneEmail = false;
        wanted.push(atom);
      }
      if (wanted.length === 0) continue;
      if (oneEmail) {
        // One email (most breaches name one address): its classes, in order, cut into items.
        for (let k = 0; k < wanted.length; k += limits.maxDataClassesPerItem) {
          const chunk = wanted.slice(k, k + limits.maxDataClassesPerItem);
          const dataClasses: string[] = [];
          for (const atom of chunk) dataClasses.push(atom.dataClass);
          items.push({ item: { breachId, dataClasses, resolved, emails: [chunk[0]!.email] }, atoms: chunk });
        }
        continue;
      }
      // email → class key → atom, both in order.
      const byEmail = new Map<string, Map<string, A>>();
      for (const atom of wanted) {
        const byClass = byEmail.get(atom.email);
        if (byClass) byClass.set(atom.classKey, atom);
        else byEmail.set(atom.email, new Map([[atom.classKey, atom]]));
      }
      for (const group of cheaperGrouping(byEmail)) {
        for (let e = 0; e < group.emails.length; e += limits.maxEmailsPerItem) {
          const emailChunk = group.emails.slice(e, e + limits.maxEmailsPerItem);
          for (let k = 0; k < group.keys.length; k += limits.maxDataClassesPerItem) {
            const keyChunk = group.keys.slice(k, k + limits.maxDataClassesPerItem);
            const chunkAtoms: A[] = [];
            for (const email of emailChunk) {
              const byClass = byEmail.get(email)!;
              for (const key of keyChunk) chunkAtoms.push(byClass.get(key)!);
            }
            items.push({ item: { breachId, dataClasses: chunkAtoms.slice(0, keyChunk.length).map((atom) => atom.dataClass), resolved, emails: emailChunk }, atoms: chunkAtoms });
          }
        }
      }
    }
  }
  return items;
}

function byCell(a: IntentAtom, b: IntentAtom): number {
  if (a.breachId !== b.breachId) return a.breachId < b.breachId ? -1 : 1;
  if (a.email !== b.email) return a.email < b.email ? -1 : 1;
  return a.classKey < b.classKey ? -1 : a.classKey > b.classKey ? 1 : 0;
}

/**
 * An item covers emails × classes, so the intents of one breach and direction must be cut into
 * such rectangles. Two cuts are cheap to compute: emails that want the same classes, or classes
 * wanted by the same emails. The smaller one wins (the smallest cover is NP-hard in general).
 * `byEmail` holds two emails or more, each with its class keys, all in order.
 */
function cheaperGrouping<A>(byEmail: Map<string, Map<string, A>>): { keys: string[]; emails: string[] }[] {
  const byClassSet = new Map<string, { keys: string[]; emails: string[] }>();
  const emailsByKey = new Map<string, string[]>();
  for (const [email, byClass] of byEmail) {
    const keys = [...byClass.keys()];
    const signature = keys.join('\u0000');
    const group = byClassSet.get(signature);
    if (group) group.emails.push(email);
    else byClassSet.set(signature, { keys, emails: [email] });
    for (const key of keys) {
      const emails = emailsByKey.get(key);
      if (emails) emails.push(email);
      else emailsByKey.set(key, [email]);
    }
  }
  const byEmailSet = new Map<string, { keys: string[]; emails: string[] }>();
  for (const key of [...emailsByKey.keys()].sort()) {
    const emails = emailsByKey.get(key)!;
    const signature = emails.join('\u0000');
    const group = byEmailSet.get(signature);
    if (group) group.keys.push(key);
    else byEmailSet.set(signature, { keys: [key], emails });
  }
  return byEmailSet.size < byClassSet.size ? [...byEmailSet.values()] : [...byClassSet.values()];
}

/** The request body exactly as it will be sent. */
export function requestBody(request: PackedRequest): string {
  return JSON.stringify(request.map((packed) => packed.item));
}

function fitBytes<A extends IntentAtom>(request: PackedRequest<A>, limits: PackLimits): PackedRequest<A>[] {
  if (request.length <= 1 || bodyBytesAtMost(request) <= limits.maxBodyBytes || Buffer.byteLength(requestBody(request)) <= limits.maxBodyBytes) return [request];
  const middle = Math.ceil(request.length / 2);
  return [...fitBytes(request.slice(0, middle), limits), ...fitBytes(request.slice(middle), limits)];
}

/**
 * A bound on the body's size in bytes without serializing it (the client serializes it once, to
 * send it): JSON writes a UTF-16 unit as at most 6 bytes (`\u001f`; a character outside ASCII
 * is 2 to 4 UTF-8 bytes for 1 or 2 units), each string adds its quotes and a comma, and an item's
 * keys, brackets and `resolved` stay under 100 bytes. Only when this is over the limit is the
 * body measured exactly.
 */
function bodyBytesAtMost(request: PackedRequest): number {
  let bytes = 2;
  for (const { item } of request) {
    bytes += 100 + 6 * item.breachId.length;
    for (const email of item.emails ?? []) bytes += 3 + 6 * email.length;
    for (const name of item.dataClasses) bytes += 3 + 6 * name.length;
  }
  return bytes;
}
