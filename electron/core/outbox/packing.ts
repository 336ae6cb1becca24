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
 * and n items need ⌈n / maxItems⌉; R = the larger of the two is also enough. Each breach's items
 * go to its g least-loaded requests, which keeps loads within one of each other, so no request
 * exceeds ⌈n / R⌉ ≤ maxItems. A request over the byte limit (only with extreme emails or names)
 * is halved until it fits.
 */
export function packIntents<A extends IntentAtom>(atoms: readonly A[], limits: PackLimits = CONTRACT_LIMITS): PackedRequest<A>[] {
  const items = buildItems(atoms, limits);
  if (items.length === 0) return [];
  // Items come grouped by breach, breaches in order: one pass finds each breach's run.
  let widest = 0;
  for (let start = 0, end = 0; start < items.length; start = end) {
    while (end < items.length && items[end]!.item.breachId === items[start]!.item.breachId) end++;
    widest = Math.max(widest, end - start);
  }
  const count = Math.max(widest, Math.ceil(items.length / limits.maxItems));
  const requests: PackedRequest<A>[] = Array.from({ length: count }, () => []);
  const order = requests.map((_, index) => index);
  for (let start = 0, end = 0; start < items.length; start = end) {
    while (end < items.length && items[end]!.item.breachId === items[start]!.item.breachId) end++;
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
  return requests.flatMap((request) => fitBytes(request, limits));
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
