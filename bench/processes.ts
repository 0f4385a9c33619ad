/**
 * `--processes=N`: the GET by id, list and POST parts against one server process and then against
 * N behind the same address (bench/cluster.ts), on the same PostgreSQL database and Redis, with
 * where the machine's CPU went during each figure, since on a small machine the load generator,
 * PostgreSQL and Redis share the cores the extra process would need.
 */
import os from 'node:os';
import { cpuMsOf } from './proc.js';
import { runLoad, type LoadResult, type LoadSpec } from './load.js';

export interface Part {
  name: string;
  spec: LoadSpec;
}

/** Cores in use during one figure: by everything, by this process (autocannon runs in it), by the servers. */
interface CpuShare {
  busy: number;
  loadGenerator: number;
  servers: number;
}
interface Figure {
  load: LoadResult;
  cpu: CpuShare;
}

function snapshot(serverPids: number[]) {
  const times = os.cpus().map((c) => c.times);
  const total = times.reduce((s, t) => s + t.user + t.nice + t.sys + t.idle + t.irq, 0);
  const idle = times.reduce((s, t) => s + t.idle, 0);
  const self = process.cpuUsage();
  return { at: performance.now(), total, idle, selfMs: (self.user + self.system) / 1000, serversMs: serverPids.reduce((s, pid) => s + cpuMsOf(pid), 0) };
}

async function figure(part: Part, serverPids: () => number[], durationS: number): Promise<Figure> {
  await runLoad({ ...part.spec, durationS: Math.min(2, durationS) }); // warm-up, not counted
  const a = snapshot(serverPids());
  const load = await runLoad({ ...part.spec, durationS });
  const b = snapshot(serverPids());
  const wallMs = b.at - a.at;
  const cores = os.cpus().length;
  const cpu = {
    busy: (1 - (b.idle - a.idle) / (b.total - a.total)) * cores,
    loadGenerator: (b.selfMs - a.selfMs) / wallMs,
    servers: (b.serversMs - a.serversMs) / wallMs,
  };
  return { load, cpu };
}

const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '?');

/**
 * Measures `parts` on the running single server, calls `switchTo` (which stops it and starts N
 * processes, returning their pids), measures them again, and returns the markdown section.
 */
export async function benchProcesses(o: {
  parts: Part[];
  processes: number;
  durationS: number;
  singlePid: number;
  switchTo: () => Promise<number[]>;
  /** Waits for what a part left the servers to do (PostgreSQL: the sheets still to be tokenized), so the next part does not run beside it. */
  settle?: () => Promise<void>;
  log: (s: string) => void;
}): Promise<string[]> {
  const measure = async (part: Part, pids: () => number[]) => {
    const fig = await figure(part, pids, o.durationS);
    await o.settle?.();
    return fig;
  };
  const one: Figure[] = [];
  for (const part of o.parts) one.push(await measure(part, () => [o.singlePid]));
  const pids = await o.switchTo();
  o.log(`${o.processes} server processes listening (pids ${pids.join(', ')})`);
  const many: Figure[] = [];
  for (const part of o.parts) many.push(await measure(part, () => pids));

  const cores = os.cpus().length;
  const rows = o.parts.map((part, i) => {
    const [a, b] = [one[i], many[i]];
    const line =
      `| ${part.name} | ${f(a.load.rps)} | ${f(b.load.rps)} | ${f(b.load.rps / a.load.rps, 2)} | ${a.load.p50} / ${b.load.p50} | ${a.load.p99} / ${b.load.p99} ` +
      `| ${f(a.cpu.busy, 2)} / ${f(b.cpu.busy, 2)} | ${f(a.cpu.loadGenerator, 2)} / ${f(b.cpu.loadGenerator, 2)} | ${f(a.cpu.servers, 2)} / ${f(b.cpu.servers, 2)} |`;
    o.log(
      `${part.name}: 1 process ${f(a.load.rps)} req/s (p50 ${a.load.p50}, p99 ${a.load.p99} ms), ${o.processes} processes ${f(b.load.rps)} req/s (p50 ${b.load.p50}, p99 ${b.load.p99} ms): x${f(b.load.rps / a.load.rps, 2)}`,
    );
    o.log(
      `  cores busy ${f(a.cpu.busy, 2)} -> ${f(b.cpu.busy, 2)} of ${cores}; load generator ${f(a.cpu.loadGenerator, 2)} -> ${f(b.cpu.loadGenerator, 2)}; servers ${f(a.cpu.servers, 2)} -> ${f(b.cpu.servers, 2)}`,
    );
    return line;
  });
  const failures = [...one, ...many].reduce((s, x) => s + x.load.failures, 0);
  const limit = limitNote(many, cores, o.processes);
  o.log(limit);
  return [
    `## ${o.processes} server processes behind one address`,
    '',
    `The same parts against one server process, then against ${o.processes} (node:cluster sharing the listen port, bench/cluster.ts), ` +
      `each process with its own database pool, on one PostgreSQL database and one Redis; ${o.durationS} s per figure after a warm-up. ` +
      'CPU columns are cores in use during the figure (of the whole machine, of the bench process that runs autocannon, of the server processes).',
    '',
    `| Measure | 1 process (req/s) | ${o.processes} processes (req/s) | Gain | p50 (ms) 1 / ${o.processes} | p99 (ms) 1 / ${o.processes} | Cores busy | Load generator cores | Server cores |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `- ${limit}`,
    ...(failures ? [`- ${failures} responses were not 2xx.`] : []),
    '',
  ];
}

/** What limits the gain here, from where the CPU went while N processes ran. */
function limitNote(many: Figure[], cores: number, processes: number): string {
  const worst = many.reduce((a, b) => (b.cpu.busy > a.cpu.busy ? b : a));
  const rest = worst.cpu.busy - worst.cpu.loadGenerator - worst.cpu.servers;
  const saturated = worst.cpu.busy >= cores * 0.9;
  return (
    `What limits the gain: ${processes} processes can use more than one core only if the machine has them free. ` +
    `Here ${cores} cores are shared by the load generator (${f(worst.cpu.loadGenerator, 2)} cores), the server processes (${f(worst.cpu.servers, 2)}) ` +
    `and PostgreSQL, Redis and everything else on the machine (${f(rest, 2)}), ${f(worst.cpu.busy, 2)} of ${cores} busy in the busiest figure` +
    (saturated
      ? ': the machine was saturated, so a second process mostly takes CPU from the others (a gain near 1, or below it, is expected); a fair scale-out figure needs the load generator and the database on other cores or machines.'
      : ': there was idle CPU left, so the limit is elsewhere (PostgreSQL locks or I/O, the pool size, or a single-threaded step).')
  );
}
