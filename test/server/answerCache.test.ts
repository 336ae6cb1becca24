import { describe, expect, it } from 'vitest';
import { AnswerCache, answerKey } from '../../server/search/AnswerCache.ts';

describe('AnswerCache', () => {
  it('serves an answer only for the revision it was made for', () => {
    const cache = new AnswerCache<string>();
    cache.set('1.0', 'k', 'old');
    expect(cache.get('1.0', 'k')).toBe('old');
    expect(cache.get('2.0', 'k')).toBeUndefined();
    cache.set('2.0', 'j', 'new');
    // Moving to a new revision drops everything of the old one.
    expect(cache.size).toBe(1);
    expect(cache.get('1.0', 'k')).toBeUndefined();
  });

  it('drops the least recently used entry past its capacity', () => {
    const cache = new AnswerCache<number>(2);
    cache.set('r', 'a', 1);
    cache.set('r', 'b', 2);
    expect(cache.get('r', 'a')).toBe(1);
    cache.set('r', 'c', 3);
    expect(cache.get('r', 'b')).toBeUndefined();
    expect([cache.get('r', 'a'), cache.get('r', 'c')]).toEqual([1, 3]);
  });

  it('keys on account, endpoint and the body as sent, which cannot run into each other', () => {
    expect(answerKey('a', 'search', '{}')).not.toBe(answerKey('a', 'chat', '{}'));
    expect(answerKey('a', 'search', '{}')).not.toBe(answerKey('b', 'search', '{}'));
    expect(answerKey('a\u0000search', 'x', '{}')).not.toBe(answerKey('a', 'search\u0000x', '{}'));
  });
});
