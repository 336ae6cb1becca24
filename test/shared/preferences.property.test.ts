// The three-way merge of shared preferences: this device's changes on top of what another
// device wrote meanwhile, against a model of "changes" as plain set operations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergePreferences, Preferences } from '../../shared/catalog/index.ts';

const ids = fc.uniqueArray(fc.constantFrom('Adobe', 'LinkedIn', 'Canva', 'Dropbox', 'MySpace', 'Yahoo'), { maxLength: 6 });
const preferences = fc
  .record({ hiddenBreaches: ids, showFlaggedBreaches: fc.boolean(), newBreaches: fc.boolean() })
  .map(({ hiddenBreaches, showFlaggedBreaches, newBreaches }) => Preferences.parse({ hiddenBreaches, showFlaggedBreaches, notifications: { newBreaches } }));

describe('mergePreferences', () => {
  it("keeps each of this device's changes and each of the other's where this one did not touch", () => {
    fc.assert(
      fc.property(preferences, preferences, preferences, (base, local, remote) => {
        const merged = mergePreferences(base, local, remote);
        const hidden = new Set(merged.hiddenBreaches);
        expect(hidden.size).toBe(merged.hiddenBreaches.length);
        for (const id of local.hiddenBreaches) if (!base.hiddenBreaches.includes(id)) expect(hidden.has(id)).toBe(true);
        for (const id of base.hiddenBreaches) if (!local.hiddenBreaches.includes(id)) expect(hidden.has(id)).toBe(false);
        // Untouched here: as the other device has it.
        for (const id of remote.hiddenBreaches) if (local.hiddenBreaches.includes(id) === base.hiddenBreaches.includes(id)) expect(hidden.has(id)).toBe(true);
        for (const id of hidden) expect(remote.hiddenBreaches.includes(id) || (local.hiddenBreaches.includes(id) && !base.hiddenBreaches.includes(id))).toBe(true);
        expect(merged.showFlaggedBreaches).toBe(local.showFlaggedBreaches !== base.showFlaggedBreaches ? local.showFlaggedBreaches : remote.showFlaggedBreaches);
        expect(merged.notifications.newBreaches).toBe(local.notifications.newBreaches !== base.notifications.newBreaches ? local.notifications.newBreaches : remote.notifications.newBreaches);
      }),
      { numRuns: 500 },
    );
  });

  it('is the remote value when nothing changed here, and this device’s value when nothing changed there', () => {
    fc.assert(
      fc.property(preferences, preferences, (base, other) => {
        expect(mergePreferences(base, base, other)).toEqual(other);
        const mine = mergePreferences(base, other, base);
        expect(new Set(mine.hiddenBreaches)).toEqual(new Set(other.hiddenBreaches));
        expect({ ...mine, hiddenBreaches: [] }).toEqual({ ...other, hiddenBreaches: [] });
      }),
    );
  });

  it('hiding one breach here and another there hides both; showing one here keeps it shown', () => {
    const base = Preferences.parse({ hiddenBreaches: ['Adobe'] });
    const here = Preferences.parse({ hiddenBreaches: ['LinkedIn'] });
    const there = Preferences.parse({ hiddenBreaches: ['Adobe', 'Canva'], notifications: { newBreaches: false } });
    expect(mergePreferences(base, here, there)).toEqual(Preferences.parse({ hiddenBreaches: ['Canva', 'LinkedIn'], notifications: { newBreaches: false } }));
  });
});
