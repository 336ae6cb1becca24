// The soak's judge must itself tell lost from replayed intents and real from wrong failures.
import { describe, expect, it } from 'vitest';
import { judge, type JudgeInput } from '../../reliability/model.ts';

const base = (over: Partial<JudgeInput>): JudgeInput => ({
  intents: new Map(),
  initial: new Set(),
  finalKeys: new Set(['B|a@x|passwords', 'B|a@x|usernames']),
  finalResolved: new Set(),
  failed: new Map(),
  removedEmail: 'gone@x',
  committed: [],
  ...over,
});

describe('soak judge', () => {
  it('accepts a service that holds the last intents, and the initial state elsewhere', () => {
    expect(judge(base({ intents: new Map([['B|a@x|passwords', true]]), initial: new Set(['B|a@x|usernames']), finalResolved: new Set(['B|a@x|passwords', 'B|a@x|usernames']) }))).toEqual({
      lost: 0,
      duplicated: 0,
      wronglyFailed: 0,
      failed: 0,
      checked: 2,
      misses: [],
    });
  });

  it('calls an intent that never landed lost, and one overwritten by an older re-send duplicated', () => {
    const lost = judge(base({ intents: new Map([['B|a@x|passwords', true]]) }));
    expect(lost).toMatchObject({ lost: 1, duplicated: 0 });
    const replayed = judge(
      base({
        intents: new Map([['B|a@x|passwords', true]]),
        committed: [
          { seq: 1, items: [{ breachId: 'B', dataClasses: ['Passwords'], resolved: true, emails: ['a@x'] }] },
          { seq: 2, items: [{ breachId: 'B', dataClasses: ['Passwords'], resolved: false, emails: ['a@x'] }] },
        ],
      }),
    );
    expect(replayed).toMatchObject({ lost: 0, duplicated: 1 });
  });

  it('counts failures on the removed email as real, others as wrong, and a silent drop after removal as lost', () => {
    const verdict = judge(
      base({
        intents: new Map([
          ['B|gone@x|passwords', true],
          ['B|gone@x|usernames', true],
        ]),
        failed: new Map([
          ['B|gone@x|passwords', 'email not found for breach "B"'],
          ['B|a@x|passwords', 'the service failed'],
        ]),
      }),
    );
    expect(verdict).toMatchObject({ failed: 1, wronglyFailed: 1, lost: 1 });
  });

  it('a toggle on the removed email withdrawn back to what the service holds is not lost (nothing was sent, nothing could fail)', () => {
    const verdict = judge(
      base({
        // Resolved at the start and re-resolved after the removal; unresolved, committed before the removal, and left so.
        intents: new Map([
          ['B|gone@x|passwords', true],
          ['B|gone@x|email-addresses', false],
        ]),
        initial: new Set(['B|gone@x|passwords', 'B|gone@x|email-addresses']),
        committed: [{ seq: 1, items: [{ breachId: 'B', dataClasses: ['Email addresses'], resolved: false, emails: ['Gone@x'] }] }],
      }),
    );
    expect(verdict).toMatchObject({ lost: 0, duplicated: 0, failed: 0, checked: 4, misses: [] });
  });

  it('a change on the removed email the service does not hold, and that was not reported failed, is lost', () => {
    const verdict = judge(
      base({
        intents: new Map([['B|gone@x|email-addresses', false]]),
        initial: new Set(['B|gone@x|email-addresses']),
        committed: [{ seq: 1, items: [{ breachId: 'B', dataClasses: ['Passwords'], resolved: false, emails: ['gone@x'] }] }],
      }),
    );
    expect(verdict).toMatchObject({ lost: 1, duplicated: 0 });
    expect(verdict.misses).toEqual(['lost: B|gone@x|email-addresses wanted false, service holds true; committed [], initially true']);
  });

  it('reads the service history by data class identity: a multi-word class overwritten by a stale re-send is duplicated, not lost', () => {
    const verdict = judge(
      base({
        finalKeys: new Set(['B|a@x|email-addresses']),
        intents: new Map([['B|a@x|email-addresses', true]]),
        committed: [
          { seq: 1, items: [{ breachId: 'B', dataClasses: ['Email addresses'], resolved: true, emails: ['a@x'] }] },
          { seq: 2, items: [{ breachId: 'B', dataClasses: ['email addresses'], resolved: false, emails: ['A@x'] }] },
        ],
      }),
    );
    expect(verdict).toMatchObject({ lost: 0, duplicated: 1 });
  });
});
