// Loaded into the service process by bench:hardening (`node --import`): the service's own
// event-loop delay, which is what a stall is, apart from how busy the measuring client or the
// machine is. SIGUSR2 prints the delay since the last signal (p99 and max, milliseconds) to
// stderr and starts over.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
process.on('SIGUSR2', () => {
  process.stderr.write(`loop-delay ${JSON.stringify({ p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 })}\n`);
  histogram.reset();
});
