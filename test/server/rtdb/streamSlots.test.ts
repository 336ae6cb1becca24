// The stream caps' bookkeeping alone (no store, no sockets): which scope a stream counts in, who
// makes way, and that a released slot is room again. The service-level behaviour is in
// test/server/hardening/streamLimits.test.ts.
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../server/http/connections.ts';
import { StreamSlots, type StreamSlot } from '../../../server/rtdb/streamSlots.ts';

const isSlot = (taken: StreamSlot | { refused: string }): taken is StreamSlot => !('refused' in taken);

describe('stream slots', () => {
  it('count IPv6 addresses of one /64 as one address, and another /64 apart', () => {
    const slots = new StreamSlots({ maxStreams: 10, maxStreamsPerIp: 2, maxStreamsPerPerson: 10 });
    expect(isSlot(slots.take(addressKey('2001:db8:1:2::1'), undefined))).toBe(true);
    expect(isSlot(slots.take(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff'), undefined))).toBe(true);
    expect(slots.take(addressKey('2001:0db8:0001:0002:abcd::9'), undefined)).toEqual({ refused: 'address' });
    expect(isSlot(slots.take(addressKey('2001:db8:1:3::1'), undefined))).toBe(true);
    // An IPv4-mapped address is the IPv4 one.
    expect(isSlot(slots.take(addressKey('::ffff:192.0.2.1'), undefined))).toBe(true);
    expect(isSlot(slots.take(addressKey('192.0.2.1'), undefined))).toBe(true);
    expect(slots.take(addressKey('192.0.2.1'), undefined)).toEqual({ refused: 'address' });
  });

  it('make anonymous streams give way to signed-in ones, never the other way, and take a released slot back', () => {
    const slots = new StreamSlots({ maxStreams: 2, maxStreamsPerIp: 2, maxStreamsPerPerson: 2 });
    const ended: string[] = [];
    const take = (address: string, person: string | undefined, name: string) => {
      const slot = slots.take(address, person);
      if (isSlot(slot)) slot.makeWay = () => ended.push(name);
      return slot;
    };
    take('a', 'user:alice', 'alice1');
    const anonymous = take('b', undefined, 'anonymous');
    expect(take('c', undefined, 'refused')).toEqual({ refused: 'total' });
    take('c', 'user:bob', 'bob');
    expect(ended).toEqual(['anonymous']);
    // No anonymous stream left: a signed-in newcomer is refused too.
    expect(slots.take('d', 'user:carol')).toEqual({ refused: 'total' });
    slots.release(anonymous as StreamSlot); // already released by making way: harmless
    expect(slots.open()).toBe(2);
    expect(ended).toEqual(['anonymous']);
  });

  it('make a person’s oldest stream give way to their newest at their own cap, and free its room in every scope', () => {
    const slots = new StreamSlots({ maxStreams: 3, maxStreamsPerIp: 3, maxStreamsPerPerson: 2 });
    const ended: string[] = [];
    for (const name of ['alice1', 'alice2', 'alice3']) {
      const slot = slots.take('a', 'user:alice');
      if (isSlot(slot)) slot.makeWay = () => ended.push(name);
    }
    expect(ended).toEqual(['alice1']);
    expect(slots.open()).toBe(2);
    expect(isSlot(slots.take('a', undefined))).toBe(true);
    expect(slots.take('a', undefined)).toEqual({ refused: 'address' });
  });
});
