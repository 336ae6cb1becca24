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
  const byBreach = new Map<string, PackedItem<A>[]>();
  for (const packed of items) {
    const list = byBreach.get(packed.item.breachId);
    if (list) list.push(packed);
    else byBreach.set(packed.item.breachId, [packed]);
  }
  let widest = 0;
  for (const list of byBreach.values()) widest = Math.max(widest, list.length);
  const count = Math.max(widest, Math.ceil(items.length / limits.maxItems));
  const requests: PackedRequest<A>[] = Array.from({ length: count }, () => []);
  const order = requests.map((_, index) => index);
  for (const breachId of [...byBreach.keys()].sort()) {
    const list = byBreach.get(breachId)!;
    order.sort((a, b) => requests[a]!.length - requests[b]!.length || a - b);
    list.forEach((packed, i) => requests[order[i]!]!.push(packed));
  }
  return requests.flatMap((request) => fitBytes(request, limits));
}

/** The items for a set of intents, before they are spread over requests. */
export function buildItems<A extends IntentAtom>(atoms: readonly A[], limits: PackLimits = CONTRACT_LIMITS): PackedItem<A>[] {
  // breach → direction → email → class key → atom
  const tree = new Map<string, Map<boolean, Map<string, Map<string, A>>>>();
  for (const atom of atoms) {
    let byDirection = tree.get(atom.breachId);
    if (!byDirection) tree.set(atom.breachId, (byDirection = new Map()));
    // The same (breach, email, class) twice, in either direction: found in the tree itself, no key built per atom.
    if (byDirection.get(true)?.get(atom.email)?.has(atom.classKey) || byDirection.get(false)?.get(atom.email)?.has(atom.classKey)) {
      throw new Error(`packIntents: intent for ${atom.breachId}/${atom.email}/${atom.classKey} given twice`);
    }
    let byEmail = byDirection.get(atom.resolved);
    if (!byEmail) byDirection.set(atom.resolved, (byEmail = new Map()));
    let byClass = byEmail.get(atom.email);
    if (!byClass) byEmail.set(atom.email, (byClass = new Map()));
    byClass.set(atom.classKey, atom);
  }

  const items: PackedItem<A>[] = [];
  for (const breachId of [...tree.keys()].sort()) {
    const byDirection = tree.get(breachId)!;
    for (const resolved of [true, false]) {
      const byEmail = byDirection.get(resolved);
      if (!byEmail) continue;
      for (const group of cheaperGrouping(byEmail)) {
        for (let e = 0; e < group.emails.length; e += limits.maxEmailsPerItem) {
          const emailChunk = group.emails.slice(e, e + limits.maxEmailsPerItem);
          for (let k = 0; k < group.keys.length; k += limits.maxDataClassesPerItem) {
            const keyChunk = group.keys.slice(k, k + limits.maxDataClassesPerItem);
            const chunkAtoms = emailChunk.flatMap((email) => keyChunk.map((key) => byEmail.get(email)!.get(key)!));
            items.push({
              item: { breachId, dataClasses: keyChunk.map((key) => byEmail.get(emailChunk[0]!)!.get(key)!.dataClass), resolved, emails: emailChunk },
              atoms: chunkAtoms,
            });
          }
        }
      }
    }
  }
  return items;
}

/**
 * An item covers emails × classes, so the intents of one breach and direction must be cut into
 * such rectangles. Two cuts are cheap to compute: emails that want the same classes, or classes
 * wanted by the same emails. The smaller one wins (the smallest cover is NP-hard in general).
 */
function cheaperGrouping<A>(byEmail: Map<string, Map<string, A>>): { keys: string[]; emails: string[] }[] {
  // One email (most breaches name one address): both cuts are that email × its classes.
  if (byEmail.size === 1) {
    const [email, byClass] = byEmail.entries().next().value!;
    return [{ keys: [...byClass.keys()].sort(), emails: [email] }];
  }
  const byClassSet = new Map<string, { keys: string[]; emails: string[] }>();
  const emailsByKey = new Map<string, string[]>();
  for (const email of [...byEmail.keys()].sort()) {
    const keys = [...byEmail.get(email)!.keys()].sort();
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
  if (request.length <= 1 || bodyBytesAtMost(request) <= limits.maxBodyBytes || Buffer.byteLength(requestBody(request)) <= limits.maxBodyBytes) return [sortItems(request)];
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

function sortItems<A extends IntentAtom>(request: PackedRequest<A>): PackedRequest<A> {
  return request.sort((a, b) => (a.item.breachId < b.item.breachId ? -1 : a.item.breachId > b.item.breachId ? 1 : 0));
}
