import { emailKey, EmailRules, type AddressCheck, type EmailVerificationMode, type PersonEmail, type UserChecks } from '../../shared/api/index.ts';
import { HttpProblem } from '../http/problems.ts';
import type { Logger } from '../log.ts';
import { emailRef } from '../log.ts';
import { MailNotSentError, type VerificationMailer } from '../mail/verificationMailer.ts';
import type { BreachStore, PersonEmailRow } from '../breaches/BreachStore.ts';
import type { MonitoredAccount } from './accounts.ts';
import type { AccountDirectory } from './accounts.ts';
import type { BreachAlertService, Caller } from './BreachAlertService.ts';
import { codeMatches, hashCode, newCode } from './verificationCodes.ts';

/** The limits of codes, in seconds and counts (EmailRules' by default; tests may shorten them). */
export type CodeRules = Record<'codeLifetimeSec' | 'maxCodeAttempts' | 'sendWindowSec' | 'maxSendsPerAddress' | 'maxSendsPerPerson', number>;

export interface PersonEmailsOptions {
  store: BreachStore;
  accounts: AccountDirectory;
  /** What is known about verified addresses, and the source to tell of new ones. */
  service: BreachAlertService;
  /** How addresses are proven on this service (see {@link EmailVerificationMode}). */
  mode: EmailVerificationMode;
  /** Present in `code` mode. */
  mailer: VerificationMailer | undefined;
  /** Addresses one person may list, the identity account's own included (`--max-emails`). */
  maxEmails: number;
  /** The service's name in messages (its public origin, or its own address). */
  serviceName: string;
  now: () => number;
  rules?: CodeRules;
  logger?: Logger;
}

/** Why an address cannot be added on a service that has no way of proving it. */
export const NO_VERIFICATION_DETAIL =
  'this service cannot send verification codes (it was started without --smtp-url), so it monitors only the address your identity provider vouches for; ask its operator to configure a mail server';

/**
 * A person's addresses (`/user/emails`): which they monitor and how each stands, adding one
 * (proven by a one-time code sent by email, or at once where the person is the service's
 * operator), entering and sending again its code, and removing it with what is known about it.
 * Unverified addresses never reach the exposure source: they are not looked up, listed or counted.
 */
export class PersonEmails {
  readonly #o: PersonEmailsOptions;
  readonly #rules: CodeRules;

  constructor(options: PersonEmailsOptions) {
    this.#o = options;
    this.#rules = options.rules ?? EmailRules;
  }

  get mode(): EmailVerificationMode {
    return this.#o.mode;
  }

  /** `GET /user/emails`: the identity account's address, the service's, then the added ones by age. */
  async list(caller: Caller, account: MonitoredAccount): Promise<PersonEmail[]> {
    const checks = account.emails.length === 0 ? undefined : await this.#o.service.checks(account);
    const byEmail = new Map((checks?.addresses ?? []).map((check) => [check.email, check]));
    const added = new Map(account.added.map((row) => [row.email, row]));
    const identity = caller.email === undefined ? undefined : emailKey(caller.email);
    const listed: PersonEmail[] = [];
    for (const email of account.emails) {
      const row = added.get(email);
      const origin = email === identity ? 'identity' : row ? 'added' : 'service';
      listed.push(this.#describe(email, origin, row, byEmail.get(email), checks));
    }
    for (const row of account.added) if (row.verifiedAt === null) listed.push(this.#describe(row.email, 'added', row, undefined, checks));
    return listed;
  }

  /** `POST /user/emails`: the new address as listed (unverified where a code was sent). */
  async add(caller: Caller, account: MonitoredAccount, given: string): Promise<PersonEmail> {
    const email = emailKey(given);
    const listed = new Set([...account.emails, ...account.added.map((row) => row.email)]);
    if (listed.has(email)) throw new HttpProblem(409, `${email} is already on your list`, { errors: [{ pointer: '/email', message: 'is already on your list' }] });
    if (this.#o.mode === 'unavailable') throw new HttpProblem(503, NO_VERIFICATION_DETAIL);
    const fixed = account.emails.filter((address) => !account.added.some((row) => row.email === address)).length;
    const now = this.#o.now();
    const result = await this.#o.store.addPersonEmail(caller.sub, email, now, this.#o.mode === 'operator' ? 'operator' : null, this.#o.maxEmails - fixed);
    if (result === 'exists') throw new HttpProblem(409, `${email} is already on your list`, { errors: [{ pointer: '/email', message: 'is already on your list' }] });
    if (result === 'full') throw this.#full();
    if (this.#o.mode === 'operator') {
      this.#o.logger?.info({ sub: caller.sub, email: emailRef(email) }, 'address added, verified by the operator');
      // Known at once to the source: a lookup queue looks a new address up first.
      await this.#o.service.notice([email]);
    } else {
      try {
        await this.#sendCode(caller.sub, email);
      } catch (error) {
        // Nothing was sent (a limit, or the mail server): the address is not left half added.
        await this.#o.store.removePersonEmail(caller.sub, email);
        throw error;
      }
    }
    return this.#one(caller, email);
  }

  /** `POST /user/emails/{email}/verification-code`: a new code (the old one stops working). */
  async resend(caller: Caller, account: MonitoredAccount, given: string): Promise<PersonEmail> {
    const email = emailKey(given);
    const row = account.added.find((candidate) => candidate.email === email);
    if (!row) throw notListed(email);
    if (row.verifiedAt !== null) throw new HttpProblem(409, `${email} is verified already: there is no code to send`);
    await this.#sendCode(caller.sub, email);
    return this.#one(caller, email);
  }

  /** `POST /user/emails/{email}/verification`: right, or refused saying why. */
  async verify(caller: Caller, account: MonitoredAccount, given: string, code: string): Promise<void> {
    const email = emailKey(given);
    if (!account.added.some((row) => row.email === email)) throw notListed(email);
    const row = await this.#o.store.countCodeAttempt(caller.sub, email);
    if (!row) throw notListed(email);
    if (row.verifiedAt !== null) return; // entered twice: it stays verified
    const again = `send a new one with POST /user/emails/${encodeURIComponent(email)}/verification-code`;
    if (row.codeHash === null || row.codeExpiresAt === null) throw new HttpProblem(409, `no code is waiting for ${email}: ${again}`);
    if (this.#o.now() >= row.codeExpiresAt) {
      throw new HttpProblem(410, `the code sent to ${email} expired at ${new Date(row.codeExpiresAt).toISOString().slice(11, 16)} UTC: ${again}`, {
        errors: [{ pointer: '/code', message: 'has expired' }],
      });
    }
    if (row.codeAttempts > this.#rules.maxCodeAttempts) {
      throw new HttpProblem(429, `the code sent to ${email} was entered wrong ${this.#rules.maxCodeAttempts} times, so it no longer works: ${again}`, {
        errors: [{ pointer: '/code', message: 'was tried too often' }],
      });
    }
    if (!(await codeMatches(row.codeHash, caller.sub, email, code))) {
      const left = this.#rules.maxCodeAttempts - row.codeAttempts;
      throw new HttpProblem(400, `that is not the code sent to ${email}: ${left > 0 ? `${left} ${left === 1 ? 'try' : 'tries'} left` : `no tries left; ${again}`}`, {
        errors: [{ pointer: '/code', message: 'is not the code sent to this address' }],
      });
    }
    await this.#o.store.markEmailVerified(caller.sub, email, this.#o.now());
    this.#o.logger?.info({ sub: caller.sub, email: emailRef(email) }, 'address verified by its code');
    await this.#o.service.notice([email]);
  }

  /** `DELETE /user/emails/{email}`: the address and, unless someone else lists it, its exposures and resolutions. */
  async remove(caller: Caller, account: MonitoredAccount, given: string): Promise<void> {
    const email = emailKey(given);
    if (caller.email !== undefined && emailKey(caller.email) === email) {
      throw new HttpProblem(409, `${email} is the address of your identity account: it is monitored as long as you sign in with that account, and cannot be removed here`);
    }
    if (!account.added.some((row) => row.email === email)) {
      if (account.emails.includes(email)) throw new HttpProblem(409, `${email} was set for you by this service's operator and cannot be removed here`);
      throw notListed(email);
    }
    if (!(await this.#o.store.removePersonEmail(caller.sub, email))) throw notListed(email);
    this.#o.logger?.info({ sub: caller.sub, email: emailRef(email) }, 'address removed with what was known about it');
  }

  async #sendCode(sub: string, email: string): Promise<void> {
    const mailer = this.#o.mailer;
    if (!mailer) throw new HttpProblem(503, NO_VERIFICATION_DETAIL);
    const now = this.#o.now();
    const code = newCode();
    const expiresAt = now + this.#rules.codeLifetimeSec * 1000;
    const result = await this.#o.store.recordCodeSend(sub, email, {
      codeHash: await hashCode(sub, email, code),
      expiresAt,
      at: now,
      since: now - this.#rules.sendWindowSec * 1000,
      perAddress: this.#rules.maxSendsPerAddress,
      perPerson: this.#rules.maxSendsPerPerson,
    });
    const window = describeWindow(this.#rules.sendWindowSec);
    const retryAfter = { 'retry-after': String(this.#rules.sendWindowSec) };
    if (result === 'address-limit') {
      throw new HttpProblem(429, `too many codes were sent to ${email}: at most ${this.#rules.maxSendsPerAddress} in ${window}; use the last one, or try again later`, { headers: retryAfter });
    }
    if (result === 'person-limit') {
      throw new HttpProblem(429, `too many codes were sent for your addresses: at most ${this.#rules.maxSendsPerPerson} in ${window}; try again later`, { headers: retryAfter });
    }
    if (result === 'verified') throw new HttpProblem(409, `${email} is verified already: there is no code to send`);
    if (result === 'missing') throw notListed(email);
    try {
      await mailer.sendCode({ to: email, code, expiresAt: new Date(expiresAt), serviceName: this.#o.serviceName });
    } catch (error) {
      if (!(error instanceof MailNotSentError)) throw error;
      this.#o.logger?.warn({ email: emailRef(email), reason: error.message }, 'verification code not sent');
      throw new HttpProblem(502, `the code could not be sent to ${email}: ${error.message}; try again later`);
    }
  }

  async #one(caller: Caller, email: string): Promise<PersonEmail> {
    const account = await this.#o.accounts.resolve(caller.sub, caller.email);
    const found = (await this.list(caller, account)).find((item) => item.email === email);
    if (!found) throw notListed(email);
    return found;
  }

  #describe(email: string, origin: PersonEmail['origin'], row: PersonEmailRow | undefined, check: AddressCheck | undefined, checks: UserChecks | undefined): PersonEmail {
    const verified = origin !== 'added' || row?.verifiedAt != null;
    const verifiedBy = !verified ? null : origin === 'identity' ? 'identity-provider' : origin === 'service' ? 'service' : (row?.verifiedBy ?? 'code');
    const state = !verified ? 'unverified' : (check?.state ?? 'pending');
    const problem = !verified ? null : state === 'failed' ? (check?.problem ?? checks?.problem?.detail ?? 'the last lookup failed') : state === 'pending' ? (checks?.problem?.detail ?? null) : null;
    return {
      email,
      verified,
      verifiedBy,
      origin,
      removable: origin === 'added',
      state,
      addedAt: row ? new Date(row.addedAt).toISOString() : null,
      breachCount: verified ? (check?.breachCount ?? null) : null,
      checkedAt: verified ? (check?.checkedAt ?? null) : null,
      problem,
      codeExpiresAt: !verified && row?.codeExpiresAt != null ? new Date(row.codeExpiresAt).toISOString() : null,
    };
  }

  #full(): HttpProblem {
    return new HttpProblem(422, `you can monitor at most ${this.#o.maxEmails} addresses on this service: remove one to add another`, {
      errors: [{ pointer: '/email', message: `at most ${this.#o.maxEmails} addresses` }],
    });
  }
}

function notListed(email: string): HttpProblem {
  return new HttpProblem(404, `${email} is not on your list`);
}

function describeWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'an hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'a minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}
