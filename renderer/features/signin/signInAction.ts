import type { AuthStatus } from '../../../shared/ipc/views.ts';

/**
 * What the control that starts a sign-in says. On the person's own service (the app started it
 * on their machine, `ownerSignIn`), the app signs them in as its owner with no browser and no
 * password: "Continue". Elsewhere a browser opens: "Sign in".
 */
export function signInActionLabel(status: AuthStatus | undefined): 'Continue' | 'Sign in' {
  return status?.ownerSignIn ? 'Continue' : 'Sign in';
}

/** Why "Continue" needs nothing more, for a hint beside it (screen readers read it as the control's description). */
export const OWNER_SIGN_IN_HINT = 'This computer runs the breach-alert service for you, so Breach Monitor signs you in as its owner: no browser, no password.';
