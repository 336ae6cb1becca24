import { dataClassKey, type ProblemFieldError } from '../../../shared/api/index.ts';
import type { IntentAtom, PackedItem, PackedRequest } from './packing.ts';

/** What to do after the service refused a whole request: send smaller ones, and/or fail intents. */
export interface Isolation<A extends IntentAtom> {
  /** Smaller requests to send instead; each strictly smaller than the refused one. */
  retry: PackedRequest<A>[];
  /** Intents the service refused on their own: to be marked failed with its reason. */
  blame: A[];
}

/**
 * Narrows down a request the service refused as a whole (400/404: it checks every item before
 * writing, so nothing was applied).
 *
 * The service's `errors` pointers (`/3/emails/1`) serve as hints: the items, emails or data
 * classes they name are sent alone and the rest together. Without usable hints the request is
 * halved. Intents are blamed only when the refused request is a single item and nothing smaller
 * can be tried — one intent — or the service named the item's breach, its only email or its only
 * data class: then every intent of the item shares the cause (e.g. "email not found for breach").
 * Every retry is strictly smaller, so isolation ends; a wrong hint costs requests, never a
 * wrong failure beyond what the service itself pointed at.
 */
export function isolateRefused<A extends IntentAtom>(request: PackedRequest<A>, fieldErrors: readonly ProblemFieldError[] = []): Isolation<A> {
  const pointers = fieldErrors.map((error) => parsePointer(error.pointer)).filter((p): p is Pointer => p !== undefined && p.item < request.length);
  if (request.length > 1) {
    const named = new Set(pointers.map((p) => p.item));
    if (named.size === 0) {
      const middle = Math.ceil(request.length / 2);
      return { retry: [request.slice(0, middle), request.slice(middle)], blame: [] };
    }
    // Unnamed items, and the unnamed part of each named item, go together; each named part alone.
    const rest: PackedRequest<A> = request.filter((_, index) => !named.has(index));
    const alone: PackedRequest<A>[] = [];
    for (const index of [...named].sort((a, b) => a - b)) {
      const { innocent, suspects } = narrowByPointers(
        request[index]!,
        pointers.filter((p) => p.item === index),
      );
      if (innocent) rest.push(innocent);
      for (const suspect of suspects) alone.push([suspect]);
    }
    return { retry: rest.length > 0 ? [rest, ...alone] : alone, blame: [] };
  }

  const only = request[0];
  if (!only) return { retry: [], blame: [] };
  if (only.atoms.length <= 1) return { retry: [], blame: only.atoms };
  const { innocent, suspects, whole } = narrowByPointers(only, pointers);
  if (whole === 'blamed') return { retry: [], blame: only.atoms };
  if (innocent || suspects.length > 1) return { retry: [...(innocent ? [[innocent]] : []), ...suspects.map((suspect) => [suspect])], blame: [] };
  const emails = only.item.emails ?? [];
  const classes = only.item.dataClasses;
  if (emails.length > 1) {
    const middle = Math.ceil(emails.length / 2);
    return { retry: [[narrow(only, emails.slice(0, middle), classes)], [narrow(only, emails.slice(middle), classes)]], blame: [] };
  }
  const middle = Math.ceil(classes.length / 2);
  return { retry: [[narrow(only, emails, classes.slice(0, middle))], [narrow(only, emails, classes.slice(middle))]], blame: [] };
}

/**
 * What the pointers into one item say: the part they do not name (`innocent`), the parts they
 * name (`suspects`), and whether they name the whole item in a way that blames every intent in
 * it (its breach, its only email, its only data class).
 */
function narrowByPointers<A extends IntentAtom>(packed: PackedItem<A>, pointers: readonly Pointer[]): { innocent?: PackedItem<A>; suspects: PackedItem<A>[]; whole?: 'blamed' } {
  if (pointers.some((p) => p.field === 'breachId')) return { suspects: [packed], whole: 'blamed' };
  const emails = packed.item.emails ?? [];
  const classes = packed.item.dataClasses;
  for (const [field, values] of [
    ['emails', emails],
    ['dataClasses', classes],
  ] as const) {
    const named = new Set(pointers.filter((p) => p.field === field && p.index >= 0 && p.index < values.length).map((p) => values[p.index]!));
    if (named.size === 0) continue;
    const part = (subset: readonly string[]) => (field === 'emails' ? narrow(packed, subset, classes) : narrow(packed, emails, subset));
    const suspects = [...named].map((value) => part([value]));
    if (named.size < values.length) return { innocent: part(values.filter((v) => !named.has(v))), suspects };
    // The service blames the only email (or class) of the item: every intent in it shares that cause.
    return values.length === 1 ? { suspects, whole: 'blamed' } : { suspects };
  }
  return { suspects: [packed] };
}

/** The part of an item for these emails and classes (names as the item spells them). */
function narrow<A extends IntentAtom>(packed: PackedItem<A>, emails: readonly string[], classes: readonly string[]): PackedItem<A> {
  const emailSet = new Set(emails);
  const keys = new Set(classes.map(dataClassKey));
  return {
    item: { ...packed.item, emails: [...emails], dataClasses: [...classes] },
    atoms: packed.atoms.filter((atom) => emailSet.has(atom.email) && keys.has(atom.classKey)),
  };
}

interface Pointer {
  item: number;
  field: string | undefined;
  index: number;
}

function parsePointer(pointer: string): Pointer | undefined {
  const match = /^\/(\d+)(?:\/(emails|dataClasses|breachId)(?:\/(\d+))?)?$/.exec(pointer);
  if (!match) return undefined;
  return { item: Number(match[1]), field: match[2], index: match[3] === undefined ? -1 : Number(match[3]) };
}
