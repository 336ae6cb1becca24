// Which person nodes a write changes, for the quota on `users/<uid>` (server/rtdb/personQuota.ts):
// a write under one, at one, or at `users` or the root touching several.
import { describe, expect, it } from 'vitest';
import { personNodesTouched } from '../../../server/rtdb/personQuota.ts';

describe('personNodesTouched', () => {
  it('names the person node of a write under it or at it, once', () => {
    expect(
      personNodesTouched([
        { path: ['users', 'ann', 'preferences', 'theme'], value: 'dark' },
        { path: ['users', 'ann'], value: { a: 1 } },
        { path: ['users', 'bo', 'x'], value: null },
      ]),
    ).toEqual([
      ['users', 'ann'],
      ['users', 'bo'],
    ]);
  });

  it('names every person a write at users or at the root holds, and none outside users', () => {
    expect(personNodesTouched([{ path: ['users'], value: { ann: { a: 1 }, bo: 'x' } }])).toEqual([
      ['users', 'ann'],
      ['users', 'bo'],
    ]);
    expect(personNodesTouched([{ path: [], value: { users: { cy: { a: 1 } }, catalog: { b: 2 } } }])).toEqual([['users', 'cy']]);
    expect(personNodesTouched([{ path: ['users'], value: null }])).toEqual([]);
    expect(personNodesTouched([{ path: ['catalog', 'breaches'], value: { users: { x: 1 } } }])).toEqual([]);
    expect(personNodesTouched([{ path: ['usersish', 'ann'], value: 1 }])).toEqual([]);
  });
});
