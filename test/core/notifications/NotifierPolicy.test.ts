import { describe, expect, it } from 'vitest';
import type { CoreNotification } from '../../../shared/ipc/index.ts';
import { NotifierPolicy } from '../../../electron/core/notifications/NotifierPolicy.ts';

function policy(enabled = { value: true }) {
  const shown: CoreNotification[] = [];
  return { shown, enabled, notifier: new NotifierPolicy({ show: (notification) => shown.push(notification), enabled: () => enabled.value }) };
}

const FRESH = [{ id: 'Adobe', breachDate: '2013-10-04', dataClasses: ['Passwords'], emails: ['a@example.com'] }];

describe('NotifierPolicy', () => {
  it('shows new breaches and refused changes in the shared wording', () => {
    const { notifier, shown } = policy();
    notifier.newBreaches(FRESH);
    notifier.failedResolutions([{ breachId: 'Adobe', reason: 'unknown data class' }]);
    expect(shown).toMatchObject([
      { kind: 'new-breach', breachId: 'Adobe' },
      { kind: 'resolution-failed', body: 'Adobe: unknown data class' },
    ]);
  });

  it('new breaches follow the person’s choice shared between devices; other notifications do not', () => {
    const shown: CoreNotification[] = [];
    const shared = { newBreaches: false };
    const notifier = new NotifierPolicy({ show: (notification) => shown.push(notification), enabled: () => true, newBreachesEnabled: () => shared.newBreaches });
    notifier.newBreaches(FRESH);
    notifier.failedResolutions([{ breachId: 'Adobe', reason: 'unknown data class' }]);
    expect(shown.map((n) => n.kind)).toEqual(['resolution-failed']);
    shared.newBreaches = true;
    notifier.newBreaches(FRESH);
    expect(shown.map((n) => n.kind)).toEqual(['resolution-failed', 'new-breach']);
  });

  it('never announces an invented (demo) breach: silent while the data is demo, other notifications unchanged', () => {
    const shown: CoreNotification[] = [];
    const source = { demo: true };
    const notifier = new NotifierPolicy({ show: (notification) => shown.push(notification), enabled: () => true, demoData: () => source.demo });
    notifier.newBreaches(FRESH);
    notifier.failedResolutions([{ breachId: 'Adobe', reason: 'unknown data class' }]);
    expect(shown.map((n) => n.kind)).toEqual(['resolution-failed']);
    source.demo = false;
    notifier.newBreaches(FRESH);
    expect(shown.map((n) => n.kind)).toEqual(['resolution-failed', 'new-breach']);
  });

  it('shows nothing when there is nothing to say', () => {
    const { notifier, shown } = policy();
    notifier.newBreaches([]);
    notifier.failedResolutions([]);
    expect(shown).toEqual([]);
  });

  it('reminds to sign in once per loss of the sign-in', () => {
    const { notifier, shown } = policy();
    notifier.observeAuthState('signed-in');
    notifier.observeAuthState('sign-in-needed');
    notifier.observeAuthState('sign-in-needed');
    expect(shown.map((n) => n.kind)).toEqual(['sign-in-needed']);
    notifier.observeAuthState('signing-in');
    notifier.observeAuthState('sign-in-needed');
    expect(shown.map((n) => n.kind)).toEqual(['sign-in-needed', 'sign-in-needed']);
  });

  it('stays quiet while paused from the tray or with notifications off in settings', () => {
    const enabled = { value: true };
    const { notifier, shown } = policy(enabled);
    notifier.setPaused(true);
    expect(notifier.paused).toBe(true);
    notifier.newBreaches(FRESH);
    notifier.setPaused(false);
    enabled.value = false;
    notifier.newBreaches(FRESH);
    expect(shown).toEqual([]);
    enabled.value = true;
    notifier.newBreaches(FRESH);
    expect(shown).toHaveLength(1);
  });
});
