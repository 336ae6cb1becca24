// Many streaming reads of a large location: a change of one leaf reaches each stream as a put
// of that leaf alone (as the real database sends it), so a change costs its own size per
// stream, not the whole location's. Sending the whole value to 200 streams after every change
// held up every other request for seconds (measured by `npm run bench:hardening`).
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_WRITE_VALUES } from '../../../server/rtdb/routes.ts';
import { devIdToken, useDevService } from '../../support/useDevService.ts';
import { openEventStream } from '../../support/eventStream.ts';

const STREAMS = 50;

// One person's streams: more than a person may hold by default (server/config.ts, STREAM_LIMIT_DEFAULTS).
const running = useDevService({ maxStreamsPerPerson: STREAMS });
let idToken: string;
beforeAll(async () => {
  idToken = await devIdToken(running.service.url, 'alice');
});

const location = (at: string) => `${running.service.url}/rtdb/users/alice/${at}.json?auth=${idToken}`;

describe('streaming reads of a large location', () => {
  it(`sends each of ${STREAMS} streams the changed leaf alone, then the whole value after a write above it`, async () => {
    const big = Object.fromEntries(Array.from({ length: MAX_WRITE_VALUES - 1 }, (_, i) => [`k${i}`, i]));
    expect((await fetch(location('watched'), { method: 'PUT', body: JSON.stringify(big) })).status).toBe(200);
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openEventStream(location('watched'))));
    try {
      for (const stream of streams) expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: big } });

      expect((await fetch(location('watched/k7'), { method: 'PUT', body: '"seven"' })).status).toBe(200);
      for (const stream of streams) expect(await stream.next('the put of the changed leaf')).toEqual({ event: 'put', data: { path: '/k7', data: 'seven' } });

      expect((await fetch(location(''), { method: 'PATCH', body: JSON.stringify({ 'watched/k0': 'zero' }) })).status).toBe(200);
      for (const stream of streams) expect(await stream.next('the put of the PATCH of a leaf')).toEqual({ event: 'put', data: { path: '/k0', data: 'zero' } });

      expect((await fetch(location('watched'), { method: 'PUT', body: '{"small": true}' })).status).toBe(200);
      for (const stream of streams) expect(await stream.next('the put of the whole value')).toEqual({ event: 'put', data: { path: '/', data: { small: true } } });
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
