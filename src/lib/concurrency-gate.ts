/**
 * Runs at most `limit` tasks at once; the others wait their turn in arrival order. A finishing task hands
 * its place straight to the next one waiting, so the count never dips and lets a newcomer overtake.
 */
export function concurrencyGate(limit: number) {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a gate needs a whole limit of 1 or more, not ${limit}`);
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    /**
     * `pace`, if given, is called as the task starts and answers a function called once it has settled:
     * the milliseconds its place stays taken after it (busyPacer). The caller has the result at once.
     */
    async run<T>(task: () => Promise<T>, pace?: Pacer): Promise<T> {
      if (running < limit) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      const restAfter = pace?.();
      try {
        return await task();
      } finally {
        const rest = restAfter?.() ?? 0;
        if (rest > 0) setTimeout(release, rest).unref();
        else release();
      }
    },
    /** Tasks running and waiting now. */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
export type ConcurrencyGate = ReturnType<typeof concurrencyGate>;

/** Called as a gated task starts; what it answers is called once the task has settled and says how long (ms) its place stays taken. */
export type Pacer = () => () => number;
