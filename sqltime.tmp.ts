import Database from 'better-sqlite3';
import fs from 'node:fs';
const proto = (Database as any).prototype;
const times = new Map<string, { n: number; t: number }>();
const origPrepare = proto.prepare;
proto.prepare = function (sql: string) {
  const st = origPrepare.call(this, sql);
  for (const m of ['all', 'get', 'run']) {
    const f = st[m].bind(st);
    st[m] = (...a: any[]) => { const t0 = process.hrtime.bigint(); try { return f(...a); } finally { const e = times.get(sql) ?? { n: 0, t: 0 }; e.n++; e.t += Number(process.hrtime.bigint() - t0) / 1000; times.set(sql, e); } };
  }
  return st;
};
const { startServer } = await import('./test/helpers.ts');
const s = await startServer('sqlite', { dataDir: '/tmp/sq', env: { RATE_LIMIT_DISABLED: '1' } });
const b = JSON.parse(fs.readFileSync('/tmp/sq/bench.json', 'utf8'));
const N = 5000;
for (let i = 0; i < 200; i++) await s.req('GET', `/v1/sheets/${b.ids[Math.floor(Math.random() * b.ids.length)]}`, { key: b.apiKey });
times.clear();
const t0 = performance.now();
for (let i = 0; i < N; i++) { const r = await s.req('GET', `/v1/sheets/${b.ids[Math.floor(Math.random() * b.ids.length)]}`, { key: b.apiKey }); if (r.status !== 200) throw new Error(String(r.status)); }
console.log('per request', ((performance.now() - t0) / N * 1000).toFixed(0), 'us');
for (const [k, v] of [...times].sort((a, b) => b[1].t - a[1].t)) console.log((v.t / N).toFixed(1).padStart(7), 'us/req', v.n, k);
await s.close();
