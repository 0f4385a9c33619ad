import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { busyPacer } from '../../src/runtime/busy-pacer.js';
import { concurrencyGate } from '../../src/lib/concurrency-gate.js';

/** A task that waits until released, recording when it started. */
function deferredTasks() {
  const started: number[] = [];
  const release = new Map<number, () => void>();
  const task =
    (n: number, fail = false) =>
    () => {
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

  it("keeps a paced task's place for its rest, while its caller has the result at once", async () => {
    const gate = concurrencyGate(1);
    const t = deferredTasks();
    let ended = 0;
    const first = gate.run(t.task(1), () => () => (ended++, 60));
    const second = gate.run(t.task(2));
    await turn();
    t.release(1);
    const got = Date.now();
    assert.equal(await first, 1);
    assert.equal(ended, 1);
    assert.deepEqual(t.started, [1], 'the next task waits out the rest');
    assert.deepEqual(gate.load, { running: 1, waiting: 1 });
    while (t.started.length < 2) await new Promise((r) => setTimeout(r, 5));
    assert.ok(Date.now() - got >= 55, `the rest lasted ${Date.now() - got} ms`);
    t.release(2);
    assert.equal(await second, 2);
    assert.deepEqual(gate.load, { running: 0, waiting: 0 });
  });

  it('refuses a limit that is not a whole number of 1 or more', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => concurrencyGate(bad), RangeError);
  });
});

describe('busyPacer', () => {
  const spin = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('rests nothing after a task that left the event loop idle', async () => {
    const end = busyPacer(0.5)();
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(end(), 0);
  });

  it("rests (1 / share - 1) times the task's time after a task while the event loop was busy", async () => {
    for (const share of [0.5, 0.25]) {
      const end = busyPacer(share)();
      // The event loop busy with other work for most of the task's time.
      spin(40);
      await new Promise((r) => setTimeout(r, 5));
      const rest = end();
      const expected = 45 * (1 / share - 1);
      assert.ok(rest >= expected * 0.9 && rest <= expected * 1.6, `share ${share}: rested ${rest} ms, expected ~${expected}`);
    }
  });

  it('rests at most restMaxMs after a very long busy task', async () => {
    const end = busyPacer(0.25, { restMaxMs: 30 })();
    spin(40);
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(end(), 30);
  });

  it('refuses a share outside (0, 1]', () => {
    for (const bad of [0, -0.5, 1.5, Number.NaN]) assert.throws(() => busyPacer(bad), RangeError);
  });
});
