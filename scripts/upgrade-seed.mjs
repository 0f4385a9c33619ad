// The records scripts/make-upgrade-fixtures.mjs writes into an old version through its REST API, and
// the manifest it keeps of them. Only routes every fixture version has are required; revisions and
// key scopes are recorded where the version answers them.

const EN_SHEETS = [
  { title: 'Kubernetes rollout checklist', folder: 'ops', tags: ['ops', 'k8s'], content: { col1: '<p>Drain the node before the kubernetes upgrade.</p>', col2: '<ul><li>cordon</li><li>drain</li></ul>' } },
  { title: 'Postgres vacuum notes', folder: 'db', tags: ['db'], content: { col1: '<p>Autovacuum thresholds for the billing database.</p>' } },
  { title: 'Release retro', tags: [], content: { col1: '<p>The migration went fine; kubernetes pods restarted twice.</p>', col2: '<p><strong>Action:</strong> alert on restarts</p>' } },
  { title: 'Grocery list', tags: ['home'], content: { col1: '<p>milk, eggs, coffee</p>' } },
  { title: 'Webhook signing', folder: 'api', tags: ['security'], content: { col1: '<p>HMAC SHA-256 over the raw body, hex encoded.</p>' } },
];
const JA_SHEETS = [
  { title: '東京都庁の議事録', folder: '会議', tags: ['議事'], content: { col1: '<p>東京都庁で議事録を確認しました。</p>', col2: '<p>次回は来週。</p>' } },
  { title: '大阪出張の議事録', folder: '会議', tags: [], content: { col1: '<p>大阪支社の会議。議事録は共有フォルダへ。</p>' } },
  { title: '東京の天気', tags: ['天気'], content: { col1: '<p>東京は晴れ、明日は雨。</p>' } },
  { title: '京都旅行', tags: [], content: { col1: '<p>京都駅から東寺まで歩いた。</p>' } },
  { title: '新宿の庁舎', tags: [], content: { col1: '<p>東京都庁舎は新宿にある。</p>' } },
  { title: '日本語と English の混在', tags: ['mixed'], content: { col1: '<p>kubernetes クラスタの議事録</p>' } },
];
/** Searched after the upgrade: words of 2, 3 and 4 CJK characters, a CJK word inside longer ones (京都 in 東京都庁), English words, two words at once. */
export const SEARCHES = ['kubernetes', 'vacuum', '東京', '議事録', '東京都庁', '京都', '都庁 議事録', 'Kubernetes 議事録', 'アーカイブ'];

export async function seed(base, userId, ownerKey) {
  const call = async (method, urlPath, body, key = ownerKey) => {
    const res = await fetch(base + urlPath, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => undefined);
    return { status: res.status, body: json };
  };
  const ok = async (method, urlPath, body, key) => {
    const r = await call(method, urlPath, body, key);
    if (r.status !== 200) throw new Error(`${method} ${urlPath}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  // The webhook first, so every later write queues a delivery to it. Its host never resolves: the
  // deliveries stay pending, and the secret is what the upgraded version must still sign with.
  const hook = (await ok('POST', '/v1/webhooks', { url: 'https://hooks.unreachable.invalid/sheet-workspace', events: ['*'], name: 'unreachable' })).webhook;

  const keys = [{ id: null, name: 'owner', key: ownerKey, active: true, scopes: null }];
  for (const k of [{ name: 'ci' }, { name: 'reader', scopes: ['sheets:read'] }, { name: 'retired' }]) {
    const r = await call('POST', '/v1/api-keys', k);
    const made = r.status === 200 ? r.body : await ok('POST', '/v1/api-keys', { name: k.name });
    keys.push({ id: made.id, name: made.name, key: made.api_key, active: true, scopes: made.scopes ?? null });
  }
  await ok('DELETE', `/v1/api-keys/${keys[3].id}`);
  keys[3].active = false;

  const sheets = [];
  for (const s of [...EN_SHEETS, ...JA_SHEETS]) sheets.push((await ok('POST', '/v1/sheets', s)).sheet);

  // Two edits each of an English and a Japanese sheet: versions 2 and 3 where the version keeps revisions.
  const edited = [sheets[0], sheets[EN_SHEETS.length]];
  for (const [i, s] of edited.entries()) {
    for (const n of [1, 2]) {
      const content = { col1: `${s.content.col1}<p>${i === 0 ? 'Edit' : '追記'} ${n}</p>` };
      const updated = (await ok('PUT', `/v1/sheets/${s.id}`, { title: `${s.title} (v${n + 1})`, content })).sheet;
      sheets[sheets.findIndex((x) => x.id === s.id)] = updated;
    }
  }
  const revisions = {};
  for (const s of edited) {
    const list = await call('GET', `/v1/sheets/${s.id}/revisions`);
    if (list.status !== 200) continue;
    revisions[s.id] = [];
    for (const r of list.body.revisions) revisions[s.id].push((await ok('GET', `/v1/sheets/${s.id}/revisions/${r.version}`)).revision);
  }

  const sessions = [];
  for (const s of [
    { title: 'Token index work', summary: 'Tuned the GIN pending list; bench numbers recorded.', project: 'search', tags: ['perf'], files_changed: ['src/db/pg-token-index.ts'] },
    { title: 'Webhook retries', summary: 'Retry schedule checked against the spec.', project: 'webhooks', tags: [] },
    { title: '検索の改善', summary: '日本語の検索を確認した。', project: 'search', tags: ['日本語'] },
  ]) {
    sessions.push((await ok('POST', '/v1/sessions', s)).session);
  }
  const handovers = [];
  for (const [i, s] of [sessions[0], sessions[2]].entries()) {
    const body = { session_id: s.id, next_steps: i === 0 ? ['Run the bench again', 'Write the docs'] : ['テストを書く'], notes: i === 0 ? 'Nothing blocked.' : '特になし。' };
    const h = await ok('POST', '/v1/sessions/handover', body);
    handovers.push({ session_id: s.id, handover_id: h.handover_id, title: h.sheet.title });
  }

  const knowledge = [];
  for (const [type, body] of [
    ['solutions', { title: 'EADDRINUSE on start', error: 'Error: listen EADDRINUSE: address already in use 127.0.0.1:8787', content: 'Another server holds the port; stop it or set PORT.', tags: ['node'] }],
    ['solutions', { title: '文字化けの対処', error: 'UnicodeDecodeError', content: 'UTF-8 で読み直す。', tags: ['日本語'] }],
    ['snippets', { title: 'Sleep in shell', content: 'sleep 0.25', language: 'bash', description: 'Wait a quarter second.', tags: ['shell'] }],
    ['snippets', { title: 'SQL count', content: 'select count(*) from sheets;', language: 'sql', tags: [] }],
  ]) {
    const r = await ok('POST', `/v1/knowledge?type=${type}`, body);
    knowledge.push({ type, id: r.id, entry: r.solution ?? r.snippet });
  }

  const todos = [];
  for (const sync of [
    {
      project: 'fixture',
      todos: [
        { content: 'Write the upgrade test', status: 'in_progress', priority: 'high', activeForm: 'Writing the upgrade test' },
        { content: 'Review the dump', status: 'pending' },
        { content: 'Ship 0.1.0', status: 'completed', priority: 'low' },
      ],
    },
    { todos: [{ content: '牛乳を買う', status: 'pending' }] },
  ]) {
    todos.push(...(await ok('POST', '/v1/todos', sync)).todos);
  }

  const deliveries = await settledDeliveries(ok, hook.id);
  const all = await listAll(ok);
  const searches = {};
  for (const q of SEARCHES) {
    const expected = all
      .filter((s) => holdsAll(s, q))
      .map((s) => s.id)
      .sort();
    const found = (await ok('GET', `/v1/sheets?q=${encodeURIComponent(q)}&limit=100`)).sheets.map((s) => s.id).sort();
    searches[q] = { expected, found_by_this_version: found };
  }

  return {
    user_id: userId,
    api_keys: keys,
    webhooks: [{ id: hook.id, url: hook.url, events: hook.events, secret: hook.secret }],
    deliveries,
    sheets,
    revisions,
    sessions,
    handovers,
    knowledge,
    todos,
    searches,
  };
}

/** Waits until the worker has fanned every event out to the webhook (the count stops moving). */
async function settledDeliveries(ok, webhookId) {
  let last = -1;
  for (let i = 0; i < 120; i++) {
    const r = await ok('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`);
    if (r.total > 0 && r.total === last) return r.deliveries.map((d) => ({ id: d.id, event: d.event, event_id: d.event_id, status: d.status }));
    last = r.total;
    await new Promise((res) => setTimeout(res, 1000));
  }
  throw new Error('webhook deliveries never settled');
}

async function listAll(ok) {
  return (await ok('GET', '/v1/sheets?limit=100')).sheets;
}

const text = (s) =>
  [s.title, ...Object.values(s.content)]
    .join('\n')
    .replace(/<[^>]*>/g, ' ')
    .toLowerCase();
const holdsAll = (s, q) =>
  q
    .toLowerCase()
    .split(/\s+/)
    .every((w) => text(s).includes(w));
