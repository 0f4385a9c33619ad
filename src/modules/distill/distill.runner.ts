import type { DistillService } from './distill.service.js';

/** The longest the runner sleeps: sessions queued by another process (a second server, `mcp` on stdio) are picked up within it. */
const IDLE_POLL_MS = 60_000;
/** After an error of the database itself, the runner rests this long before it looks again. */
const ERROR_PAUSE_MS = 5_000;
/** How long closing waits for a run in progress. */
const CLOSE_WAIT_MS = 2_000;

export interface DistillRunner {
  /** A session is due at `dueMs`: wake then (or earlier, if already waiting for something sooner). */
  wakeAt(dueMs: number): void;
  /** Runs every session due now, one after another (tests). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs distillations off the request path, one at a time per process: a timer set to the earliest
 * queued session's due time (a new queue entry moves it earlier), then every due session in turn.
 */
export function startDistillRunner(service: Pick<DistillService, 'runDue' | 'nextDue'>, onError: (err: unknown) => void): DistillRunner {
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let running: Promise<void> | undefined;
  let closed = false;

  const arm = (atMs: number) => {
    if (closed || atMs >= timerAt) return;
    if (timer) clearTimeout(timer);
    timerAt = atMs;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        void tick();
      },
      Math.max(0, atMs - Date.now()),
    );
    timer.unref();
  };

  async function tick(): Promise<void> {
    if (closed) return;
    if (running) return running.then(() => tick());
    running = (async () => {
      try {
        while (!closed && (await service.runDue()));
        if (closed) return;
        const next = await service.nextDue();
        arm(Math.min(next ?? Infinity, Date.now() + IDLE_POLL_MS));
      } catch (err) {
        onError(err);
        arm(Date.now() + ERROR_PAUSE_MS);
      }
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  arm(Date.now());
  return {
    wakeAt: (dueMs) => arm(dueMs),
    drain: () => tick(),
    /**
     * Stops the runner. A run waiting on the provider (up to AI_TIMEOUT_MS) is not waited for past
     * CLOSE_WAIT_MS: its session keeps its claim until the lease ends and is distilled again then.
     */
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (!running) return;
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((resolve) => (wait = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(wait);
    },
  };
}
