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
  toggledAfterRemoval: new Set(),
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
        failed: new Map([
          ['B|gone@x|passwords', 'email not found for breach "B"'],
          ['B|a@x|passwords', 'the service failed'],
        ]),
        toggledAfterRemoval: new Set(['B|gone@x|passwords', 'B|gone@x|usernames']),
      }),
    );
    expect(verdict).toMatchObject({ failed: 1, wronglyFailed: 1, lost: 1 });
  });
});
