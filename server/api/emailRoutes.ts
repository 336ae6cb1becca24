import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { AddEmailRequest, Email, EMAIL_VERIFICATION_HEADER, issuesToFieldErrors, Limits, VerifyEmailRequest } from '../../shared/api/index.ts';
import { readJsonBody } from '../http/body.ts';
import { HttpProblem } from '../http/problems.ts';
import { sendJson } from '../http/respond.ts';
import type { BreachAlertService, Caller } from './BreachAlertService.ts';
import type { PersonEmails } from './PersonEmails.ts';

const EMAILS = '/user/emails';
/** `/user/emails/{email}`, `…/verification`, `…/verification-code` (the address percent-encoded or not). */
const ONE = /^\/user\/emails\/([^/]+)(\/verification|\/verification-code)?$/;

/**
 * The routes of a person's addresses (CONTRACT.md "A person's addresses"); false for a path that
 * is not one of them. Every answer says how this service proves addresses (`email-verification`).
 */
export async function handleEmailRoutes(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  caller: Caller,
  service: BreachAlertService,
  emails: PersonEmails,
  allow: (req: IncomingMessage, methods: readonly string[]) => void,
): Promise<boolean> {
  const headers = { 'cache-control': 'no-store', vary: 'Authorization', [EMAIL_VERIFICATION_HEADER]: emails.mode };
  if (path === EMAILS) {
    allow(req, ['GET', 'HEAD', 'POST']);
    const account = await service.requireMonitoringUser(caller);
    if (req.method === 'POST') {
      const body = parse(AddEmailRequest, await readJsonBody(req, Limits.maxBodyBytes));
      const added = await emails.add(caller, account, body.email);
      sendJson(res, 201, added, { ...headers, location: `/api/v1${EMAILS}/${encodeURIComponent(added.email)}` });
      return true;
    }
    sendJson(res, 200, await emails.list(caller, account), headers);
    return true;
  }
  const match = ONE.exec(path);
  if (!match) return false;
  let address: string;
  try {
    address = decodeURIComponent(match[1]!);
  } catch {
    throw new HttpProblem(400, 'the address in the path is not valid percent-encoding', { errors: [{ pointer: '/email', parameter: 'email', message: 'is not valid percent-encoding' }] });
  }
  if (!Email.safeParse(address).success) {
    throw new HttpProblem(400, `"${address.slice(0, 100)}" in the path is not an email address`, { errors: [{ pointer: '/email', parameter: 'email', message: 'must be a valid email address' }] });
  }
  switch (match[2]) {
    case '/verification': {
      allow(req, ['POST']);
      const account = await service.requireMonitoringUser(caller);
      const body = parse(VerifyEmailRequest, await readJsonBody(req, Limits.maxBodyBytes));
      await emails.verify(caller, account, address, body.code);
      res.writeHead(204, headers);
      res.end();
      return true;
    }
    case '/verification-code': {
      allow(req, ['POST']);
      const account = await service.requireMonitoringUser(caller);
      sendJson(res, 200, await emails.resend(caller, account, address), headers);
      return true;
    }
    default: {
      allow(req, ['DELETE']);
      const account = await service.requireMonitoringUser(caller);
      await emails.remove(caller, account, address);
      res.writeHead(204, headers);
      res.end();
      return true;
    }
  }
}

/** A body against its schema, or 400 naming each field that is wrong. */
function parse<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const errors = issuesToFieldErrors(parsed.error.issues);
  throw new HttpProblem(400, errors.map((e) => `${e.pointer || 'body'}: ${e.message}`).join('; '), { errors });
}
