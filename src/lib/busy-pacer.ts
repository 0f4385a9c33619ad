import { performance } from 'node:perf_hooks';
import type { Pacer } from './concurrency-gate.js';

/**
 * A gate's pacer (concurrencyGate's run) that keeps a heavy task to `share` of the time while the process
 * is busy with other work: when the event loop was busy more than `busyAbove` of the task's time, the
 * task's place stays taken after it for (1 / share - 1) times as long as it ran. A process with nothing
 * else to do (a lone client searching) rests nothing.
 */
export function busyPacer(share: number, busyAbove = 0.5): Pacer {
  if (!(share > 0 && share <= 1)) throw new RangeError(`a share is above 0 and at most 1, not ${share}`);
  return () => {
    const started = performance.now();
    const loop = performance.eventLoopUtilization();
    return () => (performance.eventLoopUtilization(loop).utilization > busyAbove ? (performance.now() - started) * (1 / share - 1) : 0);
  };
}
