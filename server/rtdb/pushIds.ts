import { randomInt } from 'node:crypto';

/** The real database's push-key alphabet: in ASCII order, so keys sort by time as strings. */
const ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/**
 * A generator of POST keys: 8 characters of milliseconds then 12 random ones. Within one
 * millisecond the random part is incremented instead of redrawn, so keys from one generator
 * always sort in the order they were made.
 */
export function createPushIdGenerator(now: () => number = Date.now): () => string {
  let lastTime = -1;
  let lastRandom: number[] = [];
  return () => {
    let time = now();
    if (time < lastTime) time = lastTime; // a clock step back must not reorder keys
    if (time === lastTime) {
      let i = 11;
      while (i >= 0 && lastRandom[i] === 63) lastRandom[i--] = 0;
      if (i < 0) throw new Error('more than 64^12 keys in one millisecond');
      lastRandom[i]! += 1;
    } else {
      lastRandom = Array.from({ length: 12 }, () => randomInt(64));
    }
    lastTime = time;
    let timePart = '';
    for (let i = 0, t = time; i < 8; i++, t = Math.floor(t / 64)) timePart = ALPHABET[t % 64] + timePart;
    return timePart + lastRandom.map((n) => ALPHABET[n]).join('');
  };
}
