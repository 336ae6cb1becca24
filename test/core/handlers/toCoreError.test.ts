import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CoreError } from '../../../shared/ipc/index.ts';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import { ConfigError } from '../../../electron/core/auth/config.ts';
import { SignInError } from '../../../electron/core/auth/errors.ts';
import { GraphQueryError } from '../../../engine/graph/NodeQueryEngine.ts';
import { NodeQueryError } from '../../../electron/core/graph/NodeQueryClient.ts';
import { combineHandlers } from '../../../electron/core/handlers/combineHandlers.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { toCoreError } from '../../../electron/core/handlers/toCoreError.ts';
import { UnknownTargetError } from '../../../electron/core/outbox/errors.ts';
import { CHANNEL_NAMES } from '../../../shared/ipc/index.ts';

describe('toCoreError', () => {
  it('keeps a CoreError as it is', () => {
    const error = new CoreError('conflict', 'no');
    expect(toCoreError(error)).toBe(error);
  });

  it.each([
    [new UnknownTargetError('no breach "X"'), 'not-found'],
    [new ConfigError('invalid sign-in configuration'), 'invalid-arguments'],
    [new SignInError('cancelled', 'cancelled'), 'cancelled'],
    [new SignInError('network', 'could not reach the provider'), 'unavailable'],
    [new SignInError('denied', 'declined'), 'sign-in-required'],
    [new SignInError('already-signed-in', 'already'), 'conflict'],
    [new NodeQueryError('rejected', 'bad key', 400), 'invalid-arguments'],
    [new NodeQueryError('unavailable', 'unreachable'), 'unavailable'],
    [new ApiError('network', 'refused'), 'unavailable'],
    [new ApiError('unauthorized', '401'), 'sign-in-required'],
    [new SignInRequiredError('sign in'), 'sign-in-required'],
    [new DOMException('stop', 'AbortError'), 'cancelled'],
  ] as const)('%s → %s', (error, code) => {
    expect(toCoreError(error)).toMatchObject({ code, message: error.message });
  });

  it('names the field of a graph query error and of a zod error', () => {
    expect(toCoreError(new GraphQueryError('unknown arc', 'property'))).toMatchObject({ code: 'invalid-arguments', issues: [{ path: 'property' }] });
    const zod = z.object({ interval: z.int() }).safeParse({ interval: 'x' }).error!;
    expect(toCoreError(zod)).toMatchObject({ code: 'invalid-arguments', issues: [{ path: 'interval' }] });
  });

  it('leaves our own failures untranslated: a full disk is not the caller’s invalid argument', () => {
    expect(toCoreError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBeUndefined();
    expect(toCoreError(new TypeError('x is undefined'))).toBeUndefined();
  });

  it('is what the router answers with, and the rest is "internal" and logged', async () => {
    const logged: unknown[] = [];
    const handlers = Object.fromEntries(CHANNEL_NAMES.map((channel) => [channel, () => ({})]));
    const router = new Router(
      combineHandlers({
        ...handlers,
        'breach-get': () => {
          throw new UnknownTargetError('There is no breach "Nope".');
        },
        'settings-set': () => {
          throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        },
      }),
      { onInternalError: (_channel, error) => logged.push(error) },
    );
    expect(await router.dispatch({ type: 'request', id: 1, channel: 'breach-get', args: { id: 'Nope' } })).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: 'There is no breach "Nope".' },
    });
    expect(await router.dispatch({ type: 'request', id: 2, channel: 'settings-set', args: { theme: 'dark' } })).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(logged).toHaveLength(1);
  });
});
