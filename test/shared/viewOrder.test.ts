// What the core publishes to windows: a view passed on only when what it says changed (its
// number alone is not a change), and numbers that order views computed in one core process.
import { describe, expect, it } from 'vitest';
import { emitWhenChanged, isOlderView, nextViewSeq } from '../../shared/ipc/viewOrder.ts';

describe('emitWhenChanged', () => {
  it('passes a view on the first time and whenever what it says changed, never for a new number alone', () => {
    const heard: unknown[] = [];
    const publish = emitWhenChanged<{ seq?: number; count: number }>((view) => heard.push(view));
    publish({ seq: nextViewSeq(), count: 1 });
    publish({ seq: nextViewSeq(), count: 1 });
    publish({ count: 1 });
    publish({ seq: nextViewSeq(), count: 2 });
    publish({ seq: nextViewSeq(), count: 1 });
    expect(heard.map((view) => (view as { count: number }).count)).toEqual([1, 2, 1]);
  });

  it('compares what nested parts say too', () => {
    const heard: unknown[] = [];
    const publish = emitWhenChanged<{ seq?: number; addresses: { email: string; state: string }[] }>((view) => heard.push(view));
    publish({ addresses: [{ email: 'a@example.com', state: 'pending' }] });
    publish({ addresses: [{ email: 'a@example.com', state: 'pending' }] });
    publish({ addresses: [{ email: 'a@example.com', state: 'checked' }] });
    expect(heard).toHaveLength(2);
  });
});

describe('isOlderView', () => {
  it('calls a view older only when both carry numbers and its is smaller', () => {
    const first = { seq: nextViewSeq() };
    const second = { seq: nextViewSeq() };
    expect(isOlderView(first, second)).toBe(true);
    expect(isOlderView(second, first)).toBe(false);
    expect(isOlderView({}, second)).toBe(false);
    expect(isOlderView(first, {})).toBe(false);
    expect(isOlderView(first, undefined)).toBe(false);
  });
});
