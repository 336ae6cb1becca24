import { UserChecks } from '../../../shared/api/index.ts';
import { ApiError } from './ApiError.ts';
import type { ChecksAnswer } from '../db/breachDataQueries.ts';
import { readBreachDataHeaders } from './breachDataHeaders.ts';

/** A 2xx answer of `GET /user/checks`, checked against the contract; a wrong shape is a protocol error naming where. */
export function readChecksAnswer(headers: Pick<Headers, 'get'>, text: string, status: number): ChecksAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError('protocol', 'the service sent checks that are not JSON', { status });
  }
  const parsed = UserChecks.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError('protocol', `the service sent checks in an unexpected shape at /${issue.path.join('/')}: ${issue.message}`, { status });
  }
  return { status: 'served', checks: parsed.data, headers: readBreachDataHeaders(headers) };
}
