import os from 'node:os';

export interface Row {
  name: string;
  value: number;
  unit: string;
  floor?: number;
  ratio?: number;
  p95?: number;
  p99?: number;
  target: string;
  met?: boolean;
}

const n = (x: number | undefined, digits = 0) => (x === undefined || Number.isNaN(x) ? '' : x.toFixed(digits));

/** The markdown table bench/results.md holds, with the machine it ran on. */
export function renderResults(o: { rows: Row[]; notes: string[]; sheets: number; dialect: string; durationS: number; floor?: 'sqlite' | 'pg' }) {
  const floor =
    o.floor === 'pg'
      ? "node:http + node-postgres (a pool as large as the service's) on a copy of the seeded database in the same cluster (bench/pg-floor.ts)"
      : 'node:http + better-sqlite3 on the same rows (bench/floor.ts)';
  const cpus = os.cpus();
  const lines = [
    '# Benchmark results',
    '',
    `Run ${new Date().toISOString()} on ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ` +
      `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    `${o.dialect}, ${o.sheets} sheets of 1-3 KB HTML (English and Japanese) for one account; autocannon with 50 connections, ` + `${o.durationS} s per figure after a warm-up; the floor is ${floor}.`,
    '',
    '| Measure | Service | Floor | Ratio | p95 (ms) | p99 (ms) | Target | Met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...o.rows.map(
      (r) =>
        `| ${r.name} | ${n(r.value, r.unit === 'req/s' || r.unit === 'MB' ? 0 : 1)} ${r.unit} | ${n(r.floor)} | ${n(r.ratio, 2)} | ${n(r.p95, 1)} | ${n(r.p99, 1)} | ${r.target} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`,
    ),
    '',
    ...o.notes.map((x) => `- ${x}`),
    '',
  ];
  return lines.join('\n');
}
