import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SIGNED_IN_MESSAGE } from '../../../electron/core/auth/callbackPage.ts';
import { SignInError } from '../../../electron/core/auth/errors.ts';
import { openLoopbackRedirect } from '../../../electron/core/auth/loopback.ts';
import { isListening } from './harness.ts';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof SignInError ? error.code : `not a SignInError: ${String(error)}`),
  );
}

describe('loopback redirect listener', () => {
  it('listens on 127.0.0.1 only, on any free port, and hands over the callback query', async () => {
    const listener = await openLoopbackRedirect({ port: 0, path: '/callback', timeoutMs: 5000, complete: async (url) => url.searchParams.get('code') });
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${listener.port}/callback`);
    const response = await fetch(`${listener.redirectUri}?code=abc&state=xyz`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(SIGNED_IN_MESSAGE.replace("'", '&#39;'));
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await listener.result).toBe('abc');
    await listener.close();
    expect(await isListening(listener.port)).toBe(false);
  });

  it('answers other paths with 404 and keeps waiting', async () => {
    const listener = await openLoopbackRedirect({ port: 0, path: '/callback', timeoutMs: 5000, complete: async () => 'done' });
    try {
      expect((await fetch(`http://127.0.0.1:${listener.port}/favicon.ico`)).status).toBe(404);
      expect((await fetch(`${listener.redirectUri}?code=1`, { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${listener.redirectUri}?code=1`)).status).toBe(200);
      expect(await listener.result).toBe('done');
    } finally {
      await listener.close();
    }
  });

  it('shows the error in words and rejects when completing fails', async () => {
    const listener = await openLoopbackRedirect({
      port: 0,
      path: '/callback',
      timeoutMs: 5000,
      complete: async () => {
        throw new SignInError('state-mismatch', 'This answer is not ours.');
      },
    });
    const response = await fetch(`${listener.redirectUri}?code=1&state=2`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This answer is not ours.');
    expect(await codeOf(listener.result)).toBe('state-mismatch');
    await listener.close();
    expect(await isListening(listener.port)).toBe(false);
  });

  it('never echoes the query or a foreign error into the page', async () => {
    const listener = await openLoopbackRedirect({
      port: 0,
      path: '/callback',
      timeoutMs: 5000,
      complete: async () => {
        throw new Error('token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl leaked');
      },
    });
    const response = await fetch(`${listener.redirectUri}?code=<script>alert(1)</script>`);
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('eyJ');
    expect(html).toContain('The sign-in could not be completed.');
    await listener.close();
  });

  it('times out, rejecting in words, and closes', async () => {
    const listener = await openLoopbackRedirect({ port: 0, path: '/callback', timeoutMs: 150, complete: async () => 'never' });
    const error = await listener.result.catch((thrown: unknown) => thrown as SignInError);
    expect(error).toBeInstanceOf(SignInError);
    expect((error as SignInError).code).toBe('timeout');
    expect((error as SignInError).message).toBe('The sign-in was not finished within 1 second. Start it again from the app.');
    await listener.close();
    expect(await isListening(listener.port)).toBe(false);
  });

  it('is cancelled by its AbortSignal and closes', async () => {
    const controller = new AbortController();
    const listener = await openLoopbackRedirect({ port: 0, path: '/callback', timeoutMs: 5000, signal: controller.signal, complete: async () => 'never' });
    expect(await isListening(listener.port)).toBe(true);
    controller.abort();
    expect(await codeOf(listener.result)).toBe('cancelled');
    await listener.close();
    expect(await isListening(listener.port)).toBe(false);
  });

  it('does not start when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await codeOf(openLoopbackRedirect({ port: 0, path: '/callback', timeoutMs: 5000, signal: controller.signal, complete: async () => 'never' }))).toBe('cancelled');
  });

  it('refuses a second callback while the first is being completed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let completing!: () => void;
    const firstIsCompleting = new Promise<void>((resolve) => (completing = resolve));
    const listener = await openLoopbackRedirect({
      port: 0,
      path: '/callback',
      timeoutMs: 5000,
      complete: () => {
        completing();
        return gate.then(() => 'first');
      },
    });
    const first = fetch(`${listener.redirectUri}?code=1`);
    await firstIsCompleting;
    const second = await fetch(`${listener.redirectUri}?code=2`);
    expect(second.status).toBe(409);
    release();
    expect((await first).status).toBe(200);
    expect(await listener.result).toBe('first');
    await listener.close();
  });

  it('reports a taken fixed port clearly', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const error = await openLoopbackRedirect({ port, path: '/callback', timeoutMs: 5000, complete: async () => 'never' }).catch((thrown: unknown) => thrown as SignInError);
      expect(error).toBeInstanceOf(SignInError);
      expect((error as SignInError).code).toBe('port-in-use');
      expect((error as SignInError).message).toContain(`port ${port}`);
    } finally {
      blocker.close();
    }
  });

  it('closing twice is harmless', async () => {
    const listener = await openLoopbackRedirect({ port: 0, path: '/callback', timeoutMs: 5000, complete: async () => 'x' });
    await Promise.all([listener.close(), listener.close()]);
    expect(await codeOf(listener.result)).toBe('cancelled');
  });
});
