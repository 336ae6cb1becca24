import { problem, unauthorized } from './problemResponses.ts';
import * as api from '../../shared/api/index.ts';

// The paths of a person's addresses (`/user/emails`, CONTRACT.md "A person's addresses").

const VERIFICATION_HEADER = {
  [api.EMAIL_VERIFICATION_HEADER]: {
    description:
      "How this service proves an added address is the person's: `code` (a one-time code sent by email through the service's mail server), `operator` (the person's own loopback service — started by the app for its owner, or with the development surface — where the person is the operator: added addresses are verified at once, no message is sent), `unavailable` (no mail server: only the identity account's address is monitored)",
    schema: { $ref: '#/components/schemas/EmailVerificationMode' },
  },
};
const R = api.EmailRules;
const emailParam = {
  name: 'email',
  in: 'path',
  required: true,
  description: 'The address (percent-encoded or not; any casing)',
  schema: { type: 'string', format: 'email' },
};
const notListed = problem("The address is not on the caller's list");

export const EMAIL_SCHEMAS = {
  PersonEmailState: api.PersonEmailState,
  PersonEmailOrigin: api.PersonEmailOrigin,
  EmailVerifiedBy: api.EmailVerifiedBy,
  PersonEmail: api.PersonEmail,
  PersonEmailList: api.PersonEmailList,
  EmailVerificationMode: api.EmailVerificationMode,
  AddEmailRequest: api.AddEmailRequest,
  VerifyEmailRequest: api.VerifyEmailRequest,
};

export function emailPaths(): Record<string, unknown> {
  return {
    '/user/emails': {
      get: {
        operationId: 'listUserEmails',
        summary:
          "The caller's addresses, each with its state: the identity account's own (vouched for by the provider), any the operator set, then those the person added, verified or not. Unverified addresses are never looked up, listed in /user/breaches or counted.",
        responses: {
          '200': {
            description: 'The addresses (never cached)',
            headers: VERIFICATION_HEADER,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PersonEmailList' } } },
          },
          '401': unauthorized,
          '403': problem('Not authorized, or no monitoring user (call POST /user first)'),
        },
      },
      post: {
        operationId: 'addUserEmail',
        summary: `Adds an address to monitor. Where the service proves addresses by email, a ${R.codeDigits}-digit code valid ${R.codeLifetimeSec / 60} minutes is sent to it and it stays unverified (not looked up, listed or counted) until the code is entered; on the person's own loopback service it is verified at once (\`verifiedBy: operator\`). At most ${R.defaultMaxEmails} addresses per person by default (\`--max-emails\`), the identity account's included.`,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AddEmailRequest' } } } },
        responses: {
          '201': {
            description: 'Added (`verified: false` where a code was sent)',
            headers: { Location: { schema: { type: 'string' } }, ...VERIFICATION_HEADER },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PersonEmail' } } },
          },
          '400': problem('Not an email address; `errors` points at `/email`'),
          '401': unauthorized,
          '403': problem('Not authorized, or no monitoring user'),
          '409': problem('Already on the list'),
          '422': problem('The list is full (`--max-emails`)'),
          '429': {
            ...problem(`Too many codes sent: at most ${R.maxSendsPerAddress} to one address and ${R.maxSendsPerPerson} for one person within ${R.sendWindowSec / 60} minutes; nothing was added`),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
          '502': problem('The mail server did not take the message; nothing was added'),
          '503': problem('This service cannot prove addresses (no mail server configured)'),
        },
      },
    },
    '/user/emails/{email}': {
      delete: {
        operationId: 'removeUserEmail',
        summary:
          "Removes an address the person added, with what is known about it: its exposures, resolutions, catalog changes and lookup state (kept only while another person has proven the same address theirs). The identity account's address, and addresses the operator set, cannot be removed.",
        parameters: [emailParam],
        responses: {
          '204': { description: 'Removed' },
          '400': problem('The path does not name an email address'),
          '401': unauthorized,
          '403': problem('Not authorized, or no monitoring user'),
          '404': notListed,
          '409': problem("The identity account's own address, or one the operator set: not removable here"),
        },
      },
    },
    '/user/emails/{email}/verification': {
      post: {
        operationId: 'verifyUserEmail',
        summary: `Enters the code sent to the address. A code works ${R.codeLifetimeSec / 60} minutes and for ${R.maxCodeAttempts} entries; then a new one must be sent. Entering it again once verified answers 204.`,
        parameters: [emailParam],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/VerifyEmailRequest' } } } },
        responses: {
          '204': { description: 'Verified: the address is looked up and listed from now on' },
          '400': problem('Not the code sent (the detail says how many tries are left), or not a code at all; `errors` points at `/code`'),
          '401': unauthorized,
          '403': problem('Not authorized, or no monitoring user'),
          '404': notListed,
          '409': problem('No code is waiting: send one'),
          '410': problem('The code expired: send a new one'),
          '429': problem('The code was entered wrong too often: send a new one'),
        },
      },
    },
    '/user/emails/{email}/verification-code': {
      post: {
        operationId: 'sendUserEmailCode',
        summary: 'Sends a new code to an unverified address (the previous one stops working), within the send limits.',
        parameters: [emailParam],
        responses: {
          '200': {
            description: 'Sent: the address as listed, with its new `codeExpiresAt`',
            headers: VERIFICATION_HEADER,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PersonEmail' } } },
          },
          '400': problem('The path does not name an email address'),
          '401': unauthorized,
          '403': problem('Not authorized, or no monitoring user'),
          '404': notListed,
          '409': problem('Verified already'),
          '429': { ...problem('Too many codes sent to this address or for this person'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
          '502': problem('The mail server did not take the message'),
          '503': problem('This service cannot send codes'),
        },
      },
    },
  };
}
