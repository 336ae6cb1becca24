import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/hibp/clock.ts';
import { WorkerLoop } from '../../../server/hibp/WorkerLoop.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("WorkerLoop (the lookup queue's and the catalog refresher's loop)", () => {
  it('sleeps as long as a turn answers; a wake during a turn cuts the sleep after it short', async () => {
    let turns = 0;
    const second = deferred();
    const loop: WorkerLoop = new WorkerLoop(systemClock, async () => {
      turns++;
      if (turns === 1) loop.wake(); // during the first turn
      if (turns === 2) second.resolve();
      return 60_000;
    });
    loop.start();
    await second.promise; // reached without waiting a minute
    expect(turns).toBe(2);
    await loop.stop();
  });

  it('stop ends the sleep at once and waits for the turn in progress; no turn runs after it', async () => {
    let turns = 0;
    const inTurn = deferred();
    const finish = deferred();
    const loop = new WorkerLoop(systemClock, async () => {
      turns++;
      inTurn.resolve();
      await finish.promise;
      return 0;
    });
    loop.start();
    await inTurn.promise;
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    finish.resolve();
    await stopping;
    expect(turns).toBe(1);
    loop.start(); // a stopped loop stays stopped
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(turns).toBe(1);
  });
});
