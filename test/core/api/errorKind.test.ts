import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import { ApiError, type ApiErrorKind } from '../../../electron/core/api/ApiError.ts';
import { classifyError, isConnectivity, isTransient, needsSignIn, type ErrorKind } from '../../../electron/core/api/errorKind.ts';

describe('classifyError', () => {
  it.each<[ApiErrorKind, ErrorKind]>([
    ['network', 'offline'],
    ['timeout', 'timeout'],
    ['rate-limited', 'rate-limited'],
    ['server', 'server'],
    ['protocol', 'server'],
    ['unauthorized', 'auth-needed'],
    ['forbidden', 'forbidden'],
    ['invalid', 'invalid'],
    ['too-large', 'invalid'],
    ['not-found', 'not-found'],
  ])('an ApiError of kind %s is %s', (apiKind, kind) => {
    expect(classifyError(new ApiError(apiKind, 'whatever the words'))).toBe(kind);
  });

  it('decides from the type, never from the words', () => {
    expect(classifyError(new Error('could not reach the service'))).toBe('internal');
    expect(classifyError(new ApiError('server', 'could not reach anything'))).toBe('server');
    expect(classifyError(new SignInRequiredError('anything'))).toBe('auth-needed');
  });

  it('knows aborts as cancellations and everything else as our own failure', () => {
    expect(classifyError(new DOMException('stop', 'AbortError'))).toBe('cancelled');
    expect(classifyError(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }))).toBe('internal');
    expect(classifyError(new ZodError([]))).toBe('internal');
    expect(classifyError('a string')).toBe('internal');
  });

  it('groups the kinds for the decisions callers take', () => {
    expect((['offline', 'timeout', 'rate-limited', 'server'] as ErrorKind[]).every(isTransient)).toBe(true);
    expect((['auth-needed', 'forbidden', 'invalid', 'not-found', 'cancelled', 'internal'] as ErrorKind[]).some(isTransient)).toBe(false);
    expect(needsSignIn('auth-needed') && needsSignIn('forbidden') && !needsSignIn('server')).toBe(true);
    expect(isConnectivity('offline') && isConnectivity('timeout') && !isConnectivity('rate-limited')).toBe(true);
  });
});
