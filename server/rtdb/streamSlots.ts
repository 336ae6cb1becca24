import type { ServerResponse } from 'node:http';

/** Caps on the realtime database's open streaming reads, from the service's config. */
export interface StreamSlotLimits {
  /** Open streams in all (kept below the connection cap: the rest is room for ordinary requests). */
  maxStreams: number;
  /** Open streams from one address, one /64 for IPv6 (kept below the per-address connection cap). */
  maxStreamsPerIp: number;
  /** Open streams of one signed-in caller (a person, a service account, a database secret). */
  maxStreamsPerPerson: number;
}

/** Why a stream was refused: the cap that was full, with nothing that could make way. */
export type StreamCap = 'address' | 'total';

/** One open stream's place under the caps; released once, when the stream ends. */
export interface StreamSlot {
  readonly address: string;
  /** The signed-in caller, or undefined for an anonymous one. */
  readonly person: string | undefined;
  /**
   * Ends the stream to make room for another (a signed-in caller's at a cap, or the same
   * caller's newer stream). Set by the stream once it runs; until then a slot asked to make way
   * only remembers it (`madeWay`), and the stream ends as soon as it starts.
   */
  makeWay: (() => void) | undefined;
  madeWay: boolean;
}

/** What the open streams hold, for the bounds the tests and the bench check. */
export interface StreamStats {
  open(): number;
  /**
   * Bytes written to streams that their readers have not yet taken (Node's buffers), ended
   * streams included until their connections close.
   */
  bufferedBytes(): number;
}

/**
 * Who holds the service's streaming reads. A stream is a connection that stays busy for as long
 * as it is open, so the connection layer's rule (the oldest quiet connection makes room) never
 * frees it: these caps, set below the connection caps, keep room for ordinary requests. At a cap
 * a signed-in caller's new stream ends the oldest anonymous one in that scope (anonymous streams
 * are the first to make way); an anonymous newcomer, or a signed-in one where no anonymous stream
 * is left, is refused. A caller at their own cap ends their own oldest stream (a client that
 * reconnects before the service noticed its old connection die is not locked out by it).
 */
export class StreamSlots implements StreamStats {
  readonly #limits: StreamSlotLimits;
  // Insertion order is age order: the first match found is the oldest.
  readonly #all = new Set<StreamSlot>();
  readonly #byAddress = new Map<string, Set<StreamSlot>>();
  readonly #byPerson = new Map<string, Set<StreamSlot>>();
  readonly #answers = new Set<ServerResponse>();

  constructor(limits: StreamSlotLimits) {
    this.#limits = limits;
  }

  /** A slot for a new stream from `address` by `person` (undefined: anonymous), or the cap that refuses it. */
  take(address: string, person: string | undefined): StreamSlot | { refused: StreamCap } {
    const own = person === undefined ? undefined : this.#byPerson.get(person);
    if (own && own.size >= this.#limits.maxStreamsPerPerson) this.#evict(own.values().next().value!);
    const fromAddress = this.#byAddress.get(address);
    if (fromAddress && fromAddress.size >= this.#limits.maxStreamsPerIp) {
      const anonymous = person === undefined ? undefined : oldestAnonymous(fromAddress);
      if (!anonymous) return { refused: 'address' };
      this.#evict(anonymous);
    }
    if (this.#all.size >= this.#limits.maxStreams) {
      const anonymous = person === undefined ? undefined : oldestAnonymous(this.#all);
      if (!anonymous) return { refused: 'total' };
      this.#evict(anonymous);
    }
    const slot: StreamSlot = { address, person, makeWay: undefined, madeWay: false };
    this.#all.add(slot);
    addTo(this.#byAddress, address, slot);
    if (person !== undefined) addTo(this.#byPerson, person, slot);
    return slot;
  }

  /** Frees `slot` (again is harmless). */
  release(slot: StreamSlot): void {
    if (!this.#all.delete(slot)) return;
    removeFrom(this.#byAddress, slot.address, slot);
    if (slot.person !== undefined) removeFrom(this.#byPerson, slot.person, slot);
  }

  open(): number {
    return this.#all.size;
  }

  /** Counts what `res` buffers until its connection closes. */
  watch(res: ServerResponse): void {
    if (res.closed) return;
    this.#answers.add(res);
    res.once('close', () => this.#answers.delete(res));
  }

  bufferedBytes(): number {
    let bytes = 0;
    for (const res of this.#answers) bytes += res.writableLength;
    return bytes;
  }

  /** Frees `slot` at once (the count must drop before the newcomer is added) and tells its stream to end. */
  #evict(slot: StreamSlot): void {
    this.release(slot);
    slot.madeWay = true;
    slot.makeWay?.();
  }
}

function oldestAnonymous(slots: Iterable<StreamSlot>): StreamSlot | undefined {
  for (const slot of slots) if (slot.person === undefined) return slot;
  return undefined;
}

function addTo(index: Map<string, Set<StreamSlot>>, key: string, slot: StreamSlot): void {
  const slots = index.get(key);
  if (slots) slots.add(slot);
  else index.set(key, new Set([slot]));
}

function removeFrom(index: Map<string, Set<StreamSlot>>, key: string, slot: StreamSlot): void {
  const slots = index.get(key)!;
  slots.delete(slot);
  if (slots.size === 0) index.delete(key);
}
