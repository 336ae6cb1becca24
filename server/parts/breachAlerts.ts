import { AccountDirectory } from '../api/accounts.ts';
import { BreachAlertService } from '../api/BreachAlertService.ts';
import { PersonEmails, type CodeRules } from '../api/PersonEmails.ts';
import { emailVerificationMode, extraEmailsOf, type ServiceConfig } from '../config.ts';
import type { BreachData } from '../hibp/index.ts';
import type { Logger } from '../log.ts';
import { createSmtpMailer } from '../mail/verificationMailer.ts';
import type { ServiceStorage } from '../openStorage.ts';

export interface BreachAlertsOptions {
  config: ServiceConfig;
  storage: ServiceStorage;
  breachData: BreachData;
  /** The service's own origin: the verification mail names it when no public origin is set. */
  url: string;
  now: () => number;
  codeRules: CodeRules | undefined;
  logger: Logger;
}

/** The breach-alert service over the store, and the person's addresses with their verification mail. */
export function openBreachAlerts({ config, storage, breachData, url, now, codeRules, logger }: BreachAlertsOptions) {
  const store = storage.breaches;
  const accounts = new AccountDirectory(store, extraEmailsOf(config), config.maxEmails);
  const service = new BreachAlertService(store, accounts, () => new Date(now()), breachData.source);
  const verificationMode = emailVerificationMode(config);
  const mailer = verificationMode === 'code' && config.smtpUrl ? createSmtpMailer({ url: config.smtpUrl, from: config.smtpFrom }) : undefined;
  const emails = new PersonEmails({
    store,
    accounts,
    service,
    mode: verificationMode,
    mailer,
    maxEmails: config.maxEmails,
    serviceName: config.publicOrigin ?? url,
    now,
    ...(codeRules ? { rules: codeRules } : {}),
    logger: logger.child({ component: 'emails' }),
  });
  return { service, emails, close: () => mailer?.close() };
}

export type BreachAlerts = ReturnType<typeof openBreachAlerts>;
