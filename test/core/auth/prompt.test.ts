import { describe, expect, it } from 'vitest';
import { promptFor } from '../../../electron/core/auth/SignInFlow.ts';

const SCOPES = 'openid email offline_access';

describe('the prompt of a sign-in that offers another account', () => {
  it('asks for the account chooser where the provider lists it, else for the login page; consent rides along for a refresh token', () => {
    expect(promptFor({ chooseAccount: true }, SCOPES, {}, ['none', 'login', 'consent', 'select_account'])).toEqual({ prompt: 'select_account consent' });
    expect(promptFor({ chooseAccount: true }, SCOPES, {}, ['none', 'login', 'consent'])).toEqual({ prompt: 'login consent' });
    expect(promptFor({ chooseAccount: true }, SCOPES, {}, undefined)).toEqual({ prompt: 'login consent' });
    expect(promptFor({ chooseAccount: true }, 'openid email', {}, ['login', 'consent'])).toEqual({ prompt: 'login' });
  });

  it('leaves the prompt alone when re-signing the same account, or when the configuration sets one', () => {
    expect(promptFor({ chooseAccount: false }, SCOPES, {}, ['login', 'consent'])).toEqual({});
    expect(promptFor({}, SCOPES, {}, ['login'])).toEqual({});
    expect(promptFor({ chooseAccount: true }, SCOPES, { prompt: 'consent' }, ['login', 'consent', 'select_account'])).toEqual({});
  });
});
