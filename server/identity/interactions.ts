import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type Provider } from 'oidc-provider';
import { emailRef, type Logger } from '../log.ts';
import { FormBodyError, readForm, sendPage } from './http.ts';
import { renderConsentPage, renderLoginPage, renderMessagePage } from './pages.ts';
import type { UserDirectory } from './users.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

export interface InteractionRoutesOptions {
  provider: Provider;
  /** Absolute path the interaction pages live under, e.g. `/oidc/interaction`. */
  basePath: string;
  users: UserDirectory;
  logger: Logger;
}

export type InteractionHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** What the sign-in page says on a service without demo users (docs/auth.md). */
export const NO_PASSWORD_SIGN_IN =
  'This breach-alert service runs on real data, so it has no demo users and nobody signs in here with a password. If it runs on your computer for you, go back to Breach Monitor and choose Continue: the app signs you in as its owner. To let other people sign in, start the service with an identity provider (--issuer).';

const ROUTE = /^\/([A-Za-z0-9_-]{1,64})(?:\/(login|confirm))?\/?$/;

/**
 * The login and consent pages oidc-provider sends the browser to. CSRF protection comes from
 * the interaction cookie: oidc-provider scopes it to `${basePath}/<uid>` and
 * `interactionDetails` refuses a request without it, so a cross-site form cannot complete
 * someone else's interaction.
 */
export function createInteractionHandler(options: InteractionRoutesOptions): InteractionHandler {
  const { provider, basePath, users, logger } = options;

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const match = ROUTE.exec(pathname.slice(basePath.length));
    if (!match) return sendPage(res, 404, renderMessagePage('Not found', 'There is no such page.'));
    const [, uid, action] = match;
    const method = req.method ?? 'GET';
    if ((action === undefined && method !== 'GET' && method !== 'HEAD') || (action !== undefined && method !== 'POST')) {
      res.setHeader('Allow', action === undefined ? 'GET, HEAD' : 'POST');
      return sendPage(res, 405, renderMessagePage('Method not allowed', 'This page does not accept that request.'));
    }

    const interaction = await provider.interactionDetails(req, res);
    if (interaction.uid !== uid) {
      return sendPage(res, 400, renderMessagePage('Sign-in expired', 'This page belongs to another sign-in. Start again from the app.'));
    }
    const prompt = interaction.prompt.name;
    const self = `${basePath}/${interaction.uid}`;

    if (prompt === 'login' && action === undefined) return showLogin(res, interaction, self);
    if (prompt === 'login' && action === 'login') return submitLogin(req, res, interaction, self);
    if (prompt === 'consent' && action === undefined) return showConsent(res, interaction, self);
    if (prompt === 'consent' && action === 'confirm') return submitConsent(req, res, interaction);
    return sendPage(res, 400, renderMessagePage('Sign-in expired', 'This step of the sign-in is over. Start again from the app.'));
  }

  async function clientName(interaction: Interaction): Promise<string> {
    const clientId = String(interaction.params.client_id ?? '');
    const client = await provider.Client.find(clientId);
    return client?.clientName ?? clientId;
  }

  async function showLogin(res: ServerResponse, interaction: Interaction, self: string, form?: { email: string; error: string }) {
    // No demo users (a service on real data): nobody signs in here with a password.
    if (users.users.length === 0) return sendPage(res, 403, renderMessagePage('No sign-in here', NO_PASSWORD_SIGN_IN));
    const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
    const view = {
      action: `${self}/login`,
      clientName: await clientName(interaction),
      demoEmails: users.users.map((user) => user.email),
      email: form?.email ?? hint,
      error: form?.error,
    };
    sendPage(res, form ? 400 : 200, renderLoginPage(view));
  }

  async function submitLogin(req: IncomingMessage, res: ServerResponse, interaction: Interaction, self: string) {
    const form = await readForm(req);
    const email = (form.get('email') ?? '').trim();
    const password = form.get('password') ?? '';
    const user = users.byEmail(email);
    if (!user) {
      logger.info({ event: 'login_failed', reason: 'unknown_user', user: emailRef(email) }, 'sign-in refused');
      return showLogin(res, interaction, self, { email, error: 'Unknown demo user' });
    }
    if (!(await users.isActive(user.sub))) {
      logger.info({ event: 'login_failed', reason: 'inactive', sub: user.sub }, 'sign-in refused');
      return showLogin(res, interaction, self, { email, error: 'This account no longer exists' });
    }
    if (password.length === 0) {
      return showLogin(res, interaction, self, { email, error: 'Enter a password' });
    }
    logger.info({ event: 'login', sub: user.sub }, 'signed in');
    await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
  }

  async function showConsent(res: ServerResponse, interaction: Interaction, self: string) {
    const accountId = interaction.session?.accountId;
    const account = accountId ? users.bySub(accountId) : undefined;
    if (!account) {
      return sendPage(res, 400, renderMessagePage('Sign-in expired', 'Your sign-in is no longer valid. Start again from the app.'));
    }
    const scopes = String(interaction.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    sendPage(
      res,
      200,
      renderConsentPage({
        action: `${self}/confirm`,
        clientName: await clientName(interaction),
        accountEmail: account.email,
        scopes,
      }),
    );
  }

  async function submitConsent(req: IncomingMessage, res: ServerResponse, interaction: Interaction) {
    const form = await readForm(req);
    if (form.get('decision') !== 'allow') {
      await provider.interactionFinished(
        req,
        res,
        {
          error: 'access_denied',
          error_description: 'End-User denied the authorization request',
        },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grantId = await saveGrant(interaction);
    // Only hand back a grant id when it is new; repeating an existing one is rejected.
    const consent = interaction.grantId ? {} : { grantId };
    await provider.interactionFinished(req, res, { consent }, { mergeWithLastSubmission: true });
  }

  async function saveGrant(interaction: Interaction): Promise<string> {
    const accountId = interaction.session?.accountId;
    const clientId = String(interaction.params.client_id);
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    return grant.save();
  }

  return async function handleInteraction(req, res) {
    try {
      await route(req, res);
    } catch (error) {
      if (res.headersSent) {
        logger.error({ err: error }, 'interaction failed after the response started');
        res.destroy();
        return;
      }
      if (error instanceof errors.SessionNotFound) {
        return sendPage(res, 400, renderMessagePage('Sign-in expired', 'Your sign-in took too long or was already finished. Start again from the app.'));
      }
      if (error instanceof FormBodyError) {
        return sendPage(res, error.status, renderMessagePage('Bad request', error.message));
      }
      logger.error({ err: error }, 'interaction failed');
      sendPage(res, 500, renderMessagePage('Something went wrong', 'The sign-in could not be completed. Try again from the app.'));
    }
  };
}
