// Calls of a person's addresses (`/api/v1/user/emails`) as the app makes them, for the service's tests.
import { EMAIL_VERIFICATION_HEADER, type PersonEmail, type Problem } from '../../shared/api/index.ts';
import type { RunningService } from '../../server/app.ts';

export interface Answer<T> {
  status: number;
  /** `email-verification`: how the service proves addresses. */
  mode: string | null;
  body: T;
}

async function call<T>(service: RunningService, token: string, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(`${service.apiBaseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, mode: response.headers.get(EMAIL_VERIFICATION_HEADER), body: (text === '' ? undefined : JSON.parse(text)) as T };
}

const one = (email: string) => `/user/emails/${encodeURIComponent(email)}`;

export const emailsApi = {
  list: (service: RunningService, token: string) => call<PersonEmail[]>(service, token, 'GET', '/user/emails'),
  add: (service: RunningService, token: string, email: unknown) => call<PersonEmail & Problem>(service, token, 'POST', '/user/emails', { email }),
  verify: (service: RunningService, token: string, email: string, code: unknown) => call<Problem | undefined>(service, token, 'POST', `${one(email)}/verification`, { code }),
  resend: (service: RunningService, token: string, email: string) => call<PersonEmail & Problem>(service, token, 'POST', `${one(email)}/verification-code`),
  remove: (service: RunningService, token: string, email: string) => call<Problem | undefined>(service, token, 'DELETE', one(email)),
};

/** A token of the service's own provider for `sub` (in-process: no development surface needed), and its monitoring user. */
export async function tokenFor(service: RunningService, sub: string, claims: { email?: string; emailVerified?: boolean } = {}): Promise<string> {
  const token = await service.identity!.mintAccessToken({ sub, ...claims });
  const created = await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (created.status !== 201 && created.status !== 202) throw new Error(`POST /user: ${created.status} ${await created.text()}`);
  return token;
}
