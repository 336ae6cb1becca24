import { describe, expect, it, vi } from 'vitest';
import { Emitter } from '../../../electron/core/events/Emitter.ts';

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
});
