// The service watch against a real TCP listener that goes away and comes back on the same port,
// on simulated timers: what is tested is which knock tells what, and the waits between knocks.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVICE_WATCH_DEFAULTS, ServiceWatch } from '../../../electron/core/sync/ServiceWatch.ts';
import { FakeTimers } from '../helpers/fakeTimers.ts';
import { eventually } from '../../support/waitFor.ts';

const listeners: Server[] = [];
const watches: ServiceWatch[] = [];
afterEach(async () => {
  for (const watch of watches.splice(0)) watch.dispose();
  for (const server of listeners.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

function listen(port = 0): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  listeners.push(server);
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function close(server: Server): Promise<void> {
  listeners.splice(listeners.indexOf(server), 1);
  return new Promise((resolve) => server.close(() => resolve()));
}

function watch(port: number, timers: FakeTimers) {
  const changes: [boolean, boolean | undefined][] = [];
  const created = new ServiceWatch({ url: `http://127.0.0.1:${port}/api/v1`, timers, onChange: (answering, before) => changes.push([answering, before]) });
  watches.push(created);
  return { watch: created, changes };
}

describe('ServiceWatch', () => {
  it('tells a service gone within one knock, and back at the next second’s knock; nothing while nothing changes', async () => {
    const timers = new FakeTimers(0);
    const server = await listen();
    const port = (server.address() as AddressInfo).port;
    const { watch: w, changes } = watch(port, timers);
    w.start();
    await eventually('the first knock', () => changes.length === 1);
    expect(changes).toEqual([[true, undefined]]);
    // While it answers, the next knock is 7 s away (and nothing else is armed: no request, no retry).
    await eventually('the next knock armed', () => timers.armed.length === 1 && timers.armed[0] === SERVICE_WATCH_DEFAULTS.answeringIntervalMs);

    // Answering again changes nothing.
    await timers.advance(SERVICE_WATCH_DEFAULTS.answeringIntervalMs);
    await eventually('the second knock', () => timers.armed[0] === SERVICE_WATCH_DEFAULTS.answeringIntervalMs);
    expect(changes).toHaveLength(1);

    await close(server);
    await timers.advance(SERVICE_WATCH_DEFAULTS.answeringIntervalMs);
    await eventually('the refused knock', () => changes.length === 2);
    expect(changes[1]).toEqual([false, true]);
    expect(SERVICE_WATCH_DEFAULTS.answeringIntervalMs).toBeLessThan(10_000);
    // Silent: a knock every second.
    await eventually('the silent interval', () => timers.armed[0] === SERVICE_WATCH_DEFAULTS.silentIntervalMs);
    await timers.advance(SERVICE_WATCH_DEFAULTS.silentIntervalMs);
    await eventually('another refused knock', () => timers.armed[0] === SERVICE_WATCH_DEFAULTS.silentIntervalMs);
    expect(changes).toHaveLength(2);

    await listen(port);
    await timers.advance(SERVICE_WATCH_DEFAULTS.silentIntervalMs);
    await eventually('the answered knock', () => changes.length === 3);
    expect(changes[2]).toEqual([true, false]);
    expect(SERVICE_WATCH_DEFAULTS.silentIntervalMs).toBeLessThanOrEqual(2_000);
  });

  it('disposed, it knocks no more and tells nothing', async () => {
    const timers = new FakeTimers(0);
    const server = await listen();
    const { watch: w, changes } = watch((server.address() as AddressInfo).port, timers);
    w.start();
    await eventually('the first knock', () => changes.length === 1 && timers.armed.length === 1);
    w.dispose();
    expect(timers.armed).toEqual([]);
    await close(server);
    await timers.advance(60_000);
    expect(changes).toEqual([[true, undefined]]);
  });
});
