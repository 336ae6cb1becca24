// Loaded into the service process by test/bench/hardening/streams.ts (`node --expose-gc --import`):
// SIGUSR2 collects garbage, then prints what the process still holds (bytes) to stderr, so what
// a stream keeps can be told apart from what the writes' parsing left for the collector.
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.stderr.write(`memory ${JSON.stringify({ rss, heapUsed, external, arrayBuffers })}\n`);
});
