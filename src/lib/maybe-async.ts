/** A value now, or later: what a SQLite read gives when it could run synchronously (readNow). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `fn` applied to the value: at once when it is already there, after it resolves otherwise. Saves
 * the promise turns of an async function on paths where the value is usually there at once.
 */
export function andThen<T, U>(value: MaybePromise<T>, fn: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
