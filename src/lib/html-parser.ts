import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

/**
 * htmlparser2's Parser keeps its open elements in an array with the top at
 * index 0: every open tag is an `unshift` and every close a `shift`, which V8
 * does by moving the whole array once it is large (a 1 MB body of unclosed
 * tags took seconds), and a close tag with no open element of that name
 * scans the whole stack (`</p>` after 100,000 open `<div>` is quadratic).
 *
 * This swaps in a stack with the same interface (top at index 0, shift,
 * unshift, indexOf, length) stored bottom-first, so shift and unshift are a
 * pop and a push, and with a count per name, so indexOf of a name that is not
 * open answers at once. indexOf of an open name walks down to the nearest
 * one, and the parser then closes everything it walked over, so the walk is
 * paid once per element. The same goes for `foreignContext` (svg/math).
 * Output is unchanged: only the data structure differs.
 */
export function linearParser(cbs: Partial<Handler>, options: ParserOptions): Parser {
  const parser = new Parser(cbs, options);
  const internals = parser as unknown as { stack: unknown[]; foreignContext: unknown[] };
  internals.stack = topFirstStack<string>();
  internals.foreignContext = topFirstStack<boolean>(internals.foreignContext as boolean[]);
  return parser;
}

/** Counts of operations, for tests that assert linear work without timing. */
export const stackWork = { steps: 0 };

function topFirstStack<T>(initial: T[] = []): T[] {
  const items: T[] = [...initial].reverse(); // bottom first: the top is items[items.length - 1]
  const counts = new Map<T, number>();
  for (const v of items) counts.set(v, (counts.get(v) ?? 0) + 1);
  const methods = {
    shift(): T | undefined {
      if (items.length === 0) return undefined;
      const v = items.pop() as T;
      const c = counts.get(v)! - 1;
      if (c === 0) counts.delete(v);
      else counts.set(v, c);
      return v;
    },
    unshift(v: T): number {
      counts.set(v, (counts.get(v) ?? 0) + 1);
      return items.push(v);
    },
    indexOf(v: T): number {
      if (!counts.has(v)) return -1;
      for (let i = items.length - 1; i >= 0; i--) {
        stackWork.steps++;
        if (items[i] === v) return items.length - 1 - i;
      }
      return -1;
    },
  };
  return new Proxy(items, {
    get(_target, key) {
      if (key === 'length') return items.length;
      if (key === 'shift' || key === 'unshift' || key === 'indexOf') return methods[key];
      if (typeof key === 'string') {
        const i = Number(key);
        if (Number.isInteger(i) && i >= 0) return items[items.length - 1 - i];
      }
      return undefined;
    },
    set(_target, key, value) {
      if (key !== 'length' || value !== 0) throw new Error(`unsupported stack write: ${String(key)}`);
      items.length = 0;
      counts.clear();
      return true;
    },
  });
}
