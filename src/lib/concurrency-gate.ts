/**
 * Runs at most `limit` tasks at once; the others wait their turn in arrival order. A finishing task hands
 * its place straight to the next one waiting, so the count never dips and lets a newcomer overtake.
 */
export function concurrencyGate(limit: number) {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a gate needs a whole limit of 1 or more, not ${limit}`);
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < limit) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    /** Tasks running and waiting now. */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
export type ConcurrencyGate = ReturnType<typeof concurrencyGate>;
