import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { concurrencyGate } from '../src/lib/concurrency-gate.js';

/** A task that waits until released, recording when it started. */
function deferredTasks() {
  const started: number[] = [];
  const release = new Map<number, () => void>();
  const task = (n: number, fail = false) => () => {
    started.push(n);
    return new Promise<number>((resolve, reject) => release.set(n, () => (fail ? reject(new Error(`task ${n} failed`)) : resolve(n))));
  };
  return { started, release: (n: number) => release.get(n)!(), task };
}
const turn = () => new Promise((r) => setImmediate(r));

describe('concurrencyGate', () => {
  it('runs at most its limit at once and the rest in arrival order', async () => {
    const gate = concurrencyGate(2);
    const t = deferredTasks();
    const results = [1, 2, 3, 4, 5].map((n) => gate.run(t.task(n)));
    await turn();
    assert.deepEqual(t.started, [1, 2]);
    assert.deepEqual(gate.load, { running: 2, waiting: 3 });
    t.release(2);
    await turn();
    assert.deepEqual(t.started, [1, 2, 3]);
    // A newcomer arriving while tasks wait queues behind them.
    const late = gate.run(t.task(6));
    t.release(1);
    await turn();
    assert.deepEqual(t.started, [1, 2, 3, 4]);
    for (const n of [3, 4]) t.release(n);
    await turn();
    await turn();
    assert.deepEqual(t.started, [1, 2, 3, 4, 5, 6]);
    for (const n of [5, 6]) t.release(n);
    assert.deepEqual(await Promise.all([...results, late]), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(gate.load, { running: 0, waiting: 0 });
  });

  it('a failing task gives its place to the next and its caller gets the error', async () => {
    const gate = concurrencyGate(1);
    const t = deferredTasks();
    const failing = gate.run(t.task(1, true));
    const next = gate.run(t.task(2));
    await turn();
    t.release(1);
    await assert.rejects(failing, /task 1 failed/);
    await turn();
    assert.deepEqual(t.started, [1, 2]);
    t.release(2);
    assert.equal(await next, 2);
    assert.deepEqual(gate.load, { running: 0, waiting: 0 });
  });

  it('refuses a limit that is not a whole number of 1 or more', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => concurrencyGate(bad), RangeError);
  });
});
