// The snapshots the realtime database keeps for repeated reads (server/rtdb/RtdbStore.ts): valid
// for one revision, bounded in number and in bytes, the oldest added out first.
import { describe, expect, it } from 'vitest';
import { SnapshotCache, type LocationSnapshot } from '../../../server/rtdb/RtdbStore.ts';

const snapshot = (json: string): LocationSnapshot => ({ value: JSON.parse(json) as LocationSnapshot['value'], json, etag: `"${json.length}"` });

describe('SnapshotCache', () => {
  it('serves a snapshot only for the revision it was read at', () => {
    const cache = new SnapshotCache();
    cache.set('a', '1', snapshot('"x"'));
    expect(cache.get('a', '1')?.json).toBe('"x"');
    expect(cache.get('a', '2')).toBeUndefined();
  });

  it('keeps at most its number of snapshots, the oldest added out first', () => {
    const cache = new SnapshotCache(2);
    cache.set('a', '1', snapshot('1'));
    cache.set('b', '1', snapshot('2'));
    cache.set('c', '1', snapshot('3'));
    expect([cache.get('a', '1'), cache.get('b', '1')?.json, cache.get('c', '1')?.json]).toEqual([undefined, '2', '3']);
  });

  it('keeps its snapshots within its byte budget, and never one larger than the budget', () => {
    // 4 bytes a character of the JSON: a 10-character text weighs 40.
    const cache = new SnapshotCache(32, 100);
    cache.set('a', '1', snapshot(`"${'a'.repeat(8)}"`));
    cache.set('b', '1', snapshot(`"${'b'.repeat(8)}"`));
    expect(cache.bytes).toBe(80);
    cache.set('c', '1', snapshot(`"${'c'.repeat(8)}"`)); // 120 > 100: a goes
    expect(cache.get('a', '1')).toBeUndefined();
    expect(cache.bytes).toBe(80);
    // The same key again replaces its weight, not adds to it.
    cache.set('c', '2', snapshot('1'));
    expect(cache.bytes).toBe(44);
    // Too large for the budget: not kept, and the old one of that key is not kept either.
    cache.set('b', '2', snapshot(`"${'z'.repeat(40)}"`));
    expect(cache.get('b', '1')).toBeUndefined();
    expect(cache.get('b', '2')).toBeUndefined();
    expect(cache.bytes).toBe(4);
  });
});
