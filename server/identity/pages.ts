import { escapeHtml, renderPageShell } from '../../shared/html/page.ts';

/**
 * Server-rendered pages of the development identity provider. No scripts and no external
 * assets: the only inline style is allowed by a per-response nonce, so the CSP can stay
 * `default-src 'none'`.
 */
export interface RenderedPage {
  html: string;
  contentSecurityPolicy: string;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; display: grid; place-items: center; min-height: 100vh; background: Canvas; color: CanvasText; }
  main { width: min(24rem, 90vw); padding: 2rem; border: 1px solid GrayText; border-radius: 0.5rem; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: 0.5rem; margin-top: 0.25rem; font: inherit; }
  .actions { display: flex; gap: 0.5rem; margin-top: 1.5rem; }
  button { flex: 1; padding: 0.6rem; font: inherit; cursor: pointer; }
  button.primary { background: #0a5ad4; color: #fff; border: 1px solid #0a5ad4; border-radius: 0.25rem; }
  button.secondary { background: transparent; color: inherit; border: 1px solid GrayText; border-radius: 0.25rem; }
  .error { color: #b00020; border-left: 4px solid #b00020; padding-left: 0.5rem; }
  .hint { color: GrayText; font-size: 0.9rem; margin-top: 1.5rem; }
  ul { padding-left: 1.2rem; }
`;

function page(title: string, body: string): RenderedPage {
  const { html, nonce } = renderPageShell({ title: `${title} · Breach Monitor dev sign-in`, style: STYLE, body });
  // No form-action: the consent form ends in a redirect to the app's loopback port, which
  // browsers check against form-action too.
  const contentSecurityPolicy = `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`;
  return { html, contentSecurityPolicy };
}

export interface LoginView {
  action: string;
  clientName: string;
  demoEmails: readonly string[];
  email?: string;
  error?: string;
}

export function renderLoginPage(view: LoginView): RenderedPage {
  const error = view.error ? `<p role="alert" class="error">${escapeHtml(view.error)}</p>\n` : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(view.clientName)}</strong></p>
${error}<form method="post" action="${escapeHtml(view.action)}" autocomplete="on">
<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="username" required autofocus value="${escapeHtml(view.email ?? '')}">
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" required>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<p class="hint">Demo users: ${view.demoEmails.map(escapeHtml).join(', ')} — any password</p>`,
  );
}

const SCOPE_WORDS: Record<string, string> = {
  openid: 'Confirm who you are',
  email: 'See your email address',
  profile: 'See your name',
  offline_access: 'Stay signed in, so it can check for breaches while you are not using it',
  'https://identity.mozilla.com/apps/monitor': 'Read your breach alerts and mark them resolved (Monitor)',
};

export function describeScope(scope: string): string {
  return SCOPE_WORDS[scope] ?? `Use the permission “${scope}”`;
}

export interface ConsentView {
  action: string;
  clientName: string;
  accountEmail: string;
  scopes: readonly string[];
}

export function renderConsentPage(view: ConsentView): RenderedPage {
  const items = view.scopes.map((scope) => `<li>${escapeHtml(describeScope(scope))}</li>`).join('\n');
  return page(
    'Allow access',
    `<h1>Allow access?</h1>
<p><strong>${escapeHtml(view.clientName)}</strong> asks to access your account <strong>${escapeHtml(view.accountEmail)}</strong>. It wants to:</p>
<ul>
${items}
</ul>
<form method="post" action="${escapeHtml(view.action)}">
<div class="actions">
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
</div>
</form>`,
  );
}

export function renderMessagePage(title: string, message: string): RenderedPage {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>`,
  );
}

/** What the page after signing out says (provider.ts `endGrantsAtSignOut` makes it true). */
export const SIGNED_OUT_MESSAGE = 'You are signed out, and so is Breach Monitor wherever it signed in through this browser. You can close this window.';

/** `form` is oidc-provider's own logout form (it carries the xsrf token); it is trusted markup. */
export function renderLogoutPrompt(form: string): RenderedPage {
  return page(
    'Sign out',
    `<h1>Sign out?</h1>
<p>Do you want to sign out of the Breach Monitor development identity provider?</p>
<p>Signing out here also signs Breach Monitor out wherever it signed in through this browser: the app asks you to sign in again. To keep the app signed in, choose Stay signed in.</p>
${form}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>
</div>`,
  );
}
