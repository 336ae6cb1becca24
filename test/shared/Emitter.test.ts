import { describe, expect, it, vi } from 'vitest';
import { Emitter } from '../../shared/base/Emitter.ts';

describe('Emitter', () => {
  it('delivers to each registration until it is disposed', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    const listener = (n: number) => heard.push(n);
    const first = emitter.event(listener);
    emitter.event(listener);
    emitter.fire(1);
    first.dispose();
    emitter.fire(2);
    expect(heard).toEqual([1, 1, 2]);
  });

  it('keeps going when a listener throws, and says so', () => {
    const emitter = new Emitter<string>();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const heard: string[] = [];
    emitter.event(() => {
      throw new Error('broken');
    });
    emitter.event((s) => heard.push(s));
    emitter.fire('x');
    expect(heard).toEqual(['x']);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });

  it('drops every listener on dispose and takes no new ones', () => {
    const emitter = new Emitter<void>();
    emitter.event(() => {});
    emitter.dispose();
    expect(emitter.listenerCount).toBe(0);
    emitter.event(() => {});
    expect(emitter.listenerCount).toBe(0);
  });

  it('reports a throwing listener to the owner and still tells the ones after it', () => {
    const reported: unknown[] = [];
    const emitter = new Emitter<number>({ onListenerError: (error) => reported.push(error) });
    const heard: number[] = [];
    emitter.event((n) => heard.push(n));
    emitter.event(() => {
      throw new Error('broken');
    });
    emitter.event((n) => heard.push(n * 10));
    emitter.fire(1);
    expect(heard).toEqual([1, 10]);
    expect(reported).toEqual([new Error('broken')]);
  });

  it('fireInOrder waits for each listener, and a rejecting one does not stop the next', async () => {
    const reported: unknown[] = [];
    const emitter = new Emitter<string>({ onListenerError: (error) => reported.push(error) });
    const log: string[] = [];
    emitter.event(async (s) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`slow ${s}`);
    });
    emitter.event(() => Promise.reject(new Error('rejected')));
    emitter.event((s) => {
      log.push(`fast ${s}`);
    });
    await emitter.fireInOrder('x');
    expect(log).toEqual(['slow x', 'fast x']);
    expect(reported).toEqual([new Error('rejected')]);
  });
});
