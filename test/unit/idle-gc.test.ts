import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { startIdleCollector, type CollectInfo } from '../../src/runtime/idle-gc.js';
import { startWorkerPool } from '../../src/runtime/worker-pool.js';

const used = () => v8.getHeapStatistics().used_heap_size;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Megabyte strings held across a few turns of the loop and then dropped, like request bodies that
 * wait for a worker thread and die after their answer: by then they are in the old generation.
 */
async function burst(mb: number): Promise<number> {
  let held: string[] = [];
  // JSON.parse makes flat strings on the V8 heap, as a parsed request body is (a Buffer's toString can be external).
  for (let i = 0; i < mb; i++) held.push(JSON.parse(`"${'x'.repeat(1 << 20)}${i}"`) as string);
  for (let i = 0; i < 3; i++) {
    // Young garbage, so scavenges run and promote what is held.
    const junk: number[][] = [];
    for (let j = 0; j < 50_000; j++) junk.push([j, i]);
    await sleep(10);
  }
  // The heap with the burst still held: V8 may collect it as soon as it is dropped, before the caller could look.
  const peak = used();
  held = [];
  return peak;
}

/** Waits until `check` holds, up to `ms` (a loaded machine may run the collector's timer late). */
async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await sleep(20);
}

describe('idle heap collection', () => {
  it('collects a burst of garbage once the thread is idle, once, and not while work keeps arriving', async () => {
    const runs: (CollectInfo & { at: number })[] = [];
    const idleMs = 1500;
    const idle = startIdleCollector({ idleMs, minGrowthBytes: 16 * 2 ** 20, onCollect: (i) => runs.push({ ...i, at: Date.now() - i.ms }) });
    try {
      const peak = await burst(96);
      // Work every 50 ms keeps it from running.
      let lastTouch = 0;
      for (let i = 0; i < 12; i++) {
        lastTouch = Date.now();
        idle.touch();
        await sleep(50);
      }
      assert.equal(runs.length, 0, 'no collection while requests keep arriving');
      const before = used();
      await until(() => runs.length > 0, 10_000);
      assert.equal(runs.length, 1, 'one collection after the idle period');
      assert.ok(runs[0].at - lastTouch >= idleMs, `collected ${runs[0].at - lastTouch} ms after the last work`);
      const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
      const freedByV8 = peak - runs[0].usedBefore;
      const freed = runs[0].usedBefore - runs[0].usedAfter;
      // On a busy machine V8's own collector may take part of the burst first (its heuristics, not ours):
      // what is left for the idle collection is then smaller, but the two together free the burst.
      assert.ok(freed + Math.max(0, freedByV8) > 48 * 2 ** 20, `freed ${mb(freed)} (V8 before it: ${mb(freedByV8)})`);
      if (freedByV8 < 16 * 2 ** 20) assert.ok(freed > 48 * 2 ** 20, `the idle collection freed the burst: ${mb(freed)}`);
      assert.ok(used() < Math.max(before, peak) - 48 * 2 ** 20);
      await sleep(2 * idleMs);
      assert.equal(runs.length, 1, 'idle without new work: no second collection');
      idle.touch();
      await sleep(2 * idleMs);
      assert.equal(runs.length, 1, 'new work without heap growth: no collection');
    } finally {
      idle.stop();
    }
  });

  it('collects again after minWork touches, though the heap stayed under what the last collection left', async () => {
    // The last collection ran while 64 MB of passing data was live (a background batch); V8's own
    // collection freed it since, and its emptied pages stay committed until a compacting collection.
    v8.setFlagsFromString('--expose-gc');
    const v8Collection = vm.runInNewContext('gc') as () => void;
    const runs: CollectInfo[] = [];
    const idleMs = 400;
    const idle = startIdleCollector({ idleMs, minGrowthBytes: 16 * 2 ** 20, minWork: 100, onCollect: (i) => runs.push(i) });
    try {
      let passing: string[] = Array.from({ length: 64 }, (_, i) => JSON.parse(`"${'y'.repeat(1 << 20)}${i}"`) as string);
      idle.touch();
      await until(() => runs.length === 1, 10_000);
      assert.equal(runs.length, 1, 'the growth rule: one collection with the passing data live');
      assert.ok(runs[0].usedAfter > 60 * 2 ** 20 && passing.length === 64);
      passing = [];
      v8Collection();
      for (let i = 0; i < 99; i++) idle.touch();
      await sleep(3 * idleMs);
      assert.equal(runs.length, 1, '99 touches, below minWork and no growth: no collection');
      idle.touch();
      await until(() => runs.length === 2, 10_000);
      assert.equal(runs.length, 2, 'the 100th touch since the last collection arms one');
    } finally {
      idle.stop();
    }
  });

  it('gives back the young generation, which two plain gc() keep at its grown size', async () => {
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;
    const runs: CollectInfo[] = [];
    const idle = startIdleCollector({ idleMs: 300, minGrowthBytes: 1, onCollect: (i) => runs.push(i) });
    try {
      // Young garbage at a request burst's rate, with some of it surviving a few scavenges: V8 grows the semi-spaces to their maximum.
      let survivors: unknown[][] = [];
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        const batch = Array.from({ length: 1000 }, (_, i) => ({ i, text: `${'z'.repeat(40)}${i}` }));
        survivors.push(batch);
        if (survivors.length > 200) survivors = survivors.slice(100);
      }
      survivors = [];
      const grown = newSpace();
      assert.ok(grown >= 16 * 2 ** 20, `the load grew the young generation to ${grown >> 20} MB`);
      idle.touch();
      await until(() => runs.length === 1, 10_000);
      assert.equal(runs.length, 1);
      assert.ok(newSpace() <= 4 * 2 ** 20, `young generation after the idle collection: ${newSpace() >> 20} MB (${grown >> 20} MB before)`);
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
    const pool = await startWorkerPool(new URL('../fixtures/timer.worker', import.meta.url), { minThreads: 1, maxThreads: 1 });
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
