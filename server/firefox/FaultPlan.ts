/**
 * Faults the development surface arms on the newer contract's mount (`POST /__dev/faults`): the
 * next `count` requests answer `status` (429 or 503) instead of being served, so a client's
 * handling of "rate limited" and "keep what you hold" is tested over real HTTP.
 */
export interface ArmedFault {
  status: 429 | 503;
  /** Seconds, sent as `Retry-After`. */
  retryAfter: number;
}

export class FaultPlan {
  #armed: (ArmedFault & { remaining: number }) | undefined;

  /** Replaces whatever was armed; `count` 0 clears. */
  arm(fault: ArmedFault, count: number): void {
    this.#armed = count > 0 ? { ...fault, remaining: count } : undefined;
  }

  /** The fault for this request, if one is armed; counts it down. */
  take(): ArmedFault | undefined {
    const armed = this.#armed;
    if (!armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.#armed = undefined;
    return { status: armed.status, retryAfter: armed.retryAfter };
  }

  remaining(): number {
    return this.#armed?.remaining ?? 0;
  }
}
