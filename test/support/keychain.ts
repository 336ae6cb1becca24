// When the tests that need the OS keychain run: with a private Secret Service (tools/with-keyring.sh)
// and the optional keytar module built (it needs libsecret's headers). Outside CI a missing part
// skips them with one line; in CI they must run, so a missing part fails them.
import { loadKeytar } from '../../electron/core/auth/secrets/KeytarSecretStore.ts';

export const IN_CI = Boolean(process.env.CI);
const testKeyring = Boolean(process.env.BREACH_MONITOR_TEST_KEYRING);
const keytarError = await loadKeytar().then(
  () => undefined,
  (error: unknown) => (error instanceof Error ? error.message : String(error)),
);

/** Why the keychain tests cannot run here, or undefined when they can. */
export const KEYCHAIN_MISSING: string | undefined = !testKeyring
  ? 'no test keyring (run through tools/with-keyring.sh, which needs gnome-keyring and dbus)'
  : keytarError !== undefined
    ? `the optional keytar module is not installed (it builds where libsecret-1-dev is installed): ${keytarError}`
    : undefined;

/** Run the keychain tests: everything they need is here, or CI requires them anyway. */
export const RUN_KEYCHAIN_TESTS = KEYCHAIN_MISSING === undefined || IN_CI;

/** True when keytar itself loads (whatever the keyring). */
export const KEYTAR_INSTALLED = keytarError === undefined;
