import { performance } from 'node:perf_hooks';
import type { Pacer } from '../lib/concurrency-gate.js';

/**
 * A gate's pacer (concurrencyGate's run) that keeps a heavy task to `share` of the time while the process
 * is busy with other work: when the event loop was busy more than `busyAbove` of the task's time, the
 * task's place stays taken after it for (1 / share - 1) times as long as it ran, up to `restMaxMs` (one
 * very slow task does not hold back the next for as long again). A process with nothing else to do (a
 * lone client searching) rests nothing.
 */
export function busyPacer(share: number, opts: { busyAbove?: number; restMaxMs?: number } = {}): Pacer {
  if (!(share > 0 && share <= 1)) throw new RangeError(`a share is above 0 and at most 1, not ${share}`);
  const busyAbove = opts.busyAbove ?? 0.5;
  const restMaxMs = opts.restMaxMs ?? 1000;
  return () => {
    const started = performance.now();
    const loop = performance.eventLoopUtilization();
    return () => {
      if (performance.eventLoopUtilization(loop).utilization <= busyAbove) return 0;
      return Math.min(restMaxMs, (performance.now() - started) * (1 / share - 1));
    };
  };
}
