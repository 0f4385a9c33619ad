/** Resolves on the next turn of the event loop, after the I/O callbacks that are already due. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `items.map(fn)`, giving the event loop a turn after every `perTurn` items: a long list of costly
 * items (a search page's 50 snippets, ~5 ms) then never holds other requests for more than a slice
 * of it.
 */
export async function mapInTurns<T, R>(items: readonly T[], perTurn: number, fn: (item: T) => R | Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % perTurn === 0) await nextTurn();
    // One at a time: an item that waits for a worker (a long column's text) does not queue the whole page there.
    out.push(await fn(items[i]));
  }
  return out;
}
