import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { startIdleCollector, type CollectInfo } from '../src/lib/idle-gc.js';
import { startWorkerPool } from '../src/lib/worker-pool.js';

const used = () => v8.getHeapStatistics().used_heap_size;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Megabyte strings held across a few turns of the loop and then dropped, like request bodies that
 * wait for a worker thread and die after their answer: by then they are in the old generation.
 */
async function burst(mb: number): Promise<void> {
  let held: string[] = [];
  // JSON.parse makes flat strings on the V8 heap, as a parsed request body is (a Buffer's toString can be external).
  for (let i = 0; i < mb; i++) held.push(JSON.parse(`"${'x'.repeat(1 << 20)}${i}"`) as string);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 20_000; j++) held.length += 0 * [j].length; // young garbage: scavenges promote what is held
    await sleep(10);
  }
  held = [];
}

describe('idle heap collection', () => {
  it('collects a burst of garbage once the thread is idle, once, and not while work keeps arriving', async () => {
    const runs: CollectInfo[] = [];
    const idle = startIdleCollector({ idleMs: 300, minGrowthBytes: 16 * 2 ** 20, onCollect: (i) => runs.push(i) });
    try {
      await burst(96);
      idle.touch();
      // Work every 100 ms keeps it from running.
      for (let i = 0; i < 6; i++) {
        await sleep(100);
        idle.touch();
      }
      assert.equal(runs.length, 0, 'no collection while requests keep arriving');
      const before = used();
      await sleep(800);
      assert.equal(runs.length, 1, 'one collection after the idle period');
      assert.ok(runs[0].usedBefore - runs[0].usedAfter > 48 * 2 ** 20, `freed ${((runs[0].usedBefore - runs[0].usedAfter) / 2 ** 20).toFixed(0)} MB`);
      assert.ok(used() < before - 48 * 2 ** 20);
      await sleep(800);
      assert.equal(runs.length, 1, 'idle without new work: no second collection');
      idle.touch();
      await sleep(800);
      assert.equal(runs.length, 1, 'new work without heap growth: no collection');
    } finally {
      idle.stop();
    }
  });

  it('idleMs 0 turns it off', async () => {
    const runs: CollectInfo[] = [];
    const idle = startIdleCollector({ idleMs: 0, minGrowthBytes: 1, onCollect: (i) => runs.push(i) });
    idle.touch();
    await burst(32);
    await sleep(300);
    idle.stop();
    assert.equal(runs.length, 0);
  });
});

describe('worker pool threads between tasks', () => {
  it('keep their event loop running, so their idle collection (a timer) can run', async () => {
    // piscina's default waits in Atomics.wait between tasks: a timer set by a task never fired.
    const pool = await startWorkerPool(new URL('./fixtures/timer.worker', import.meta.url), { minThreads: 1, maxThreads: 1 });
    try {
      const counter = new SharedArrayBuffer(4);
      assert.equal(await pool.run({ counter, afterMs: 50 }), 1);
      await sleep(500);
      assert.equal(Atomics.load(new Int32Array(counter), 0), 1, 'the timer left by the task fired while the worker was idle');
    } finally {
      await pool.destroy();
    }
  });
});
