import { beforeEach, describe, expect, it, vi } from 'vitest';
import { failedResolutionsNotification, newBreachesNotification, signInNeededNotification, type NewBreachNotice } from '../../shared/ipc/host.ts';
import { CoreNotification } from '../../shared/ipc/host.ts';
import { FakeNotification, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { createNotifier, MAX_LIVE_NOTIFICATIONS } = await import('../../electron/main/notifications.ts');

beforeEach(() => resetElectron());

const adobe: NewBreachNotice = { id: 'Adobe', breachDate: '2013-10-04', dataClasses: ['Email addresses', 'Passwords', 'Password hints', 'Usernames'], emails: ['alice@example.com'] };
const linkedin: NewBreachNotice = { id: 'LinkedIn', breachDate: '2012-05-05', dataClasses: ['Email addresses', 'Passwords'], emails: ['alice@example.com', 'bob@example.com'] };
const dropbox: NewBreachNotice = { id: 'Dropbox', breachDate: '2012-07-01', dataClasses: ['Email addresses', 'Passwords'], emails: ['carol@example.com'] };

describe('notification wording', () => {
  it('names the email, the breach, its date and what leaked for one new breach', () => {
    expect(newBreachesNotification([adobe])).toEqual({
      kind: 'new-breach',
      title: 'New breach: Adobe',
      body: 'alice@example.com appears in Adobe (2013-10-04): Email addresses, Passwords, Password hints and Usernames',
      breachId: 'Adobe',
    });
    expect(newBreachesNotification([linkedin])!.body).toBe('alice@example.com and 1 more appear in LinkedIn (2012-05-05): Email addresses and Passwords');
  });

  it('names the data classes of a slug-speaking service as the app shows them', () => {
    const slugged = { ...linkedin, dataClasses: ['email-addresses', 'passwords', 'shoe-sizes'] };
    expect(newBreachesNotification([slugged])!.body).toBe('alice@example.com and 1 more appear in LinkedIn (2012-05-05): Email addresses, Passwords and Shoe sizes');
  });

  it('sums several new breaches of one sync up in one notification without a single breach to open', () => {
    const summary = newBreachesNotification([adobe, linkedin, dropbox])!;
    expect(summary).toEqual({
      kind: 'new-breach',
      title: '3 new breaches',
      body: 'alice@example.com, bob@example.com and 1 more appear in Adobe (2013-10-04), LinkedIn (2012-05-05) and Dropbox (2012-07-01). Open Breach Monitor to review them.',
    });
    const many = Array.from({ length: 12 }, (_, i) => ({ ...dropbox, id: `Breach${i}` }));
    expect(newBreachesNotification(many)!.body).toBe('carol@example.com appears in Breach0 (2012-07-01), Breach1 (2012-07-01), Breach2 (2012-07-01) and 9 more. Open Breach Monitor to review them.');
    expect(newBreachesNotification([])).toBeUndefined();
  });

  it('reports refused resolutions and sign-in', () => {
    expect(failedResolutionsNotification([{ breachId: 'Adobe', reason: 'data class not in breach' }])).toEqual({
      kind: 'resolution-failed',
      title: 'A change could not be saved',
      body: 'Adobe: data class not in breach',
      breachId: 'Adobe',
    });
    const several = failedResolutionsNotification([
      { breachId: 'Adobe', reason: 'x' },
      { breachId: 'LinkedIn', reason: 'y' },
    ])!;
    expect(several.title).toBe('2 changes could not be saved');
    expect(several.breachId).toBeUndefined();
    expect(failedResolutionsNotification([])).toBeUndefined();
    expect(signInNeededNotification().kind).toBe('sign-in-needed');
  });

  it('always fits the message schema', () => {
    const huge = { ...adobe, id: 'X'.repeat(500), dataClasses: Array.from({ length: 200 }, (_, i) => `Class ${i}`) };
    for (const notification of [newBreachesNotification([huge]), newBreachesNotification([huge, huge]), signInNeededNotification()]) {
      expect(CoreNotification.safeParse(notification).success).toBe(true);
    }
  });
});

describe('notifier', () => {
  it('shows the notification and reports a click with its breach', () => {
    const onClick = vi.fn();
    createNotifier({ iconPath: '/res/icons/256x256.png', onClick }).show(newBreachesNotification([adobe])!);
    const [shown] = FakeNotification.instances;
    expect(shown!.shown).toBe(true);
    expect(shown!.options).toEqual({ title: 'New breach: Adobe', body: expect.stringContaining('appears in Adobe'), icon: '/res/icons/256x256.png' });
    shown!.emit('click');
    expect(onClick).toHaveBeenCalledWith('Adobe');
  });

  it('reports a click on a summary without a breach', () => {
    const onClick = vi.fn();
    createNotifier({ onClick }).show(newBreachesNotification([adobe, dropbox])!);
    FakeNotification.instances[0]!.emit('click');
    expect(onClick).toHaveBeenCalledWith(undefined);
  });

  it(`holds at most ${MAX_LIVE_NOTIFICATIONS} notifications nobody closed, the newest, for their clicks (issue 35, bounds)`, () => {
    const onClick = vi.fn();
    const notifier = createNotifier({ onClick });
    // A notification centre that keeps every one and never says it closed.
    for (let i = 0; i < 100; i++) notifier.show(newBreachesNotification([{ ...adobe, id: `Breach${i}` }])!);
    const held = FakeNotification.instances.filter((shown) => shown.listenerCount('click') > 0);
    expect(held).toEqual(FakeNotification.instances.slice(-MAX_LIVE_NOTIFICATIONS));
    FakeNotification.instances.at(-MAX_LIVE_NOTIFICATIONS)!.emit('click');
    FakeNotification.instances[0]!.emit('click');
    expect(onClick.mock.calls).toEqual([[`Breach${100 - MAX_LIVE_NOTIFICATIONS}`]]);
  });

  it('shows nothing where the OS has no notifications', () => {
    FakeNotification.supported = false;
    createNotifier({ onClick: vi.fn() }).show(signInNeededNotification());
    expect(FakeNotification.instances).toEqual([]);
  });
});
