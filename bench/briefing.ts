import type { Row } from './report.js';

/**
 * The briefing's build time with a large store (issue 54): beside the bench's sheets, 20,000 sessions over 20
 * projects (each with files, a failed command and completed tasks), 10,000 todos and 2,000 solutions, written
 * through the API; then GET /v1/briefing of one project (1,000 sessions, a handover, 500 open todos, errors that
 * match knowledge) one request at a time. Target: p95 <= 50 ms.
 */
const PROJECTS = 20;
const SESSIONS = 20_000;
const TODOS = 10_000;
const SOLUTIONS = 2_000;
const REQUESTS = 200;

async function inParallel(n: number, width: number, one: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await one(next++);
    }),
  );
}

export async function benchBriefing(o: { base: string; auth: Record<string, string>; log: (m: string) => void }): Promise<Row[]> {
  const headers = { ...o.auth, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown, method = 'POST') => {
    const r = await fetch(`${o.base}${path}`, { method, headers, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`bench briefing: ${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<any>;
  };
  const started = Date.now();
  await inParallel(SESSIONS, 8, async (i) => {
    const project = `proj-${i % PROJECTS}`;
    await post(
      `/v1/sessions/external/bench:${i}`,
      {
        title: `Session ${i}: migrated the ${['auth', 'billing', 'search', 'export'][i % 4]} module`,
        summary: `Worked on item ${i}. Moved code, fixed tests and wrote notes about the change.`,
        project,
        files_changed: [`src/module-${i % 50}/index.ts`, `test/module-${i % 50}.test.ts`],
        outcome: `Item ${i} is done; the tests pass.`,
        tasks_done: [`Finish item ${i}`],
        errors: [{ command: 'npm test', error: `Error: module-${i % 50} failed: SqliteError: database is locked` }],
        source: 'capture',
        agent: 'claude-code',
      },
      'PUT',
    );
  });
  for (let p = 0; p < PROJECTS; p++) {
    const items = Array.from({ length: TODOS / PROJECTS }, (_, i) => ({ content: `Task ${i} of project ${p}`, status: i % 2 ? 'completed' : i % 5 ? 'pending' : 'in_progress' }));
    for (let k = 0; k < items.length; k += 250) await post('/v1/todos', { project: `proj-${p}`, todos: items.slice(k, k + 250) });
  }
  await inParallel(SOLUTIONS, 8, async (i) => {
    await post('/v1/knowledge?type=solutions', { title: `Fix ${i}`, error: `Error: module-${i % 50} failed: SqliteError: database is locked (${i})`, content: `Set busy_timeout for module ${i % 50}.` });
  });
  const target = 'proj-7';
  const session = await post('/v1/sessions', { title: 'Handover session', summary: 'Planned the next steps.', project: target });
  await post('/v1/sessions/handover', { session_id: session.id, next_steps: ['Finish item 7', 'Write the release notes', 'Deploy to staging'], notes: 'Watch the locking errors.' });
  o.log(`briefing: wrote ${SESSIONS} sessions, ${TODOS} todos, ${SOLUTIONS} solutions in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const times: number[] = [];
  let chars = 0;
  for (let i = 0; i < REQUESTS + 10; i++) {
    const t0 = performance.now();
    const r = await fetch(`${o.base}/v1/briefing?project=${target}`, { headers: o.auth });
    const body = (await r.json()) as { text: string };
    if (!r.ok) throw new Error(`bench briefing: GET /v1/briefing: ${r.status} ${JSON.stringify(body)}`);
    if (i >= 10) times.push(performance.now() - t0);
    chars = body.text.length;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  o.log(`briefing: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, ${chars} characters`);
  return [
    {
      name: `GET /v1/briefing, ${SESSIONS.toLocaleString('en')} sessions + ${TODOS.toLocaleString('en')} todos + ${SOLUTIONS.toLocaleString('en')} solutions beside the sheets, one at a time`,
      value: at(0.5),
      unit: 'ms (p50)',
      p95: at(0.95),
      target: 'p95 <= 50 ms',
      met: at(0.95) <= 50,
    },
    { name: '  (briefing text size)', value: chars, unit: 'chars', target: '<= 6,000 (default)', met: chars <= 6000 },
  ];
}
