/**
 * Deterministic, realistic sheet content: notes mixing English and Japanese,
 * 1-3 KB of HTML per sheet with headings, paragraphs, lists, inline tags and code.
 */

const EN = (
  'deploy worker migration database index query latency cache review release branch commit ' +
  'server client request response token session handover todo knowledge snippet error retry ' +
  'timeout queue webhook payload signature schema config backup restore monitor alert metric ' +
  'customer invoice meeting agenda decision owner deadline budget roadmap feature design test'
).split(' ');

const JA = (
  '会議 大阪 打ち合わせ 資料 確認 対応 予定 開発 設計 検証 本番 環境 障害 調査 報告 ' +
  '顧客 請求 契約 担当 期限 予算 仕様 変更 改善 品質 性能 移行 更新 手順 共有 課題 議事録 ' +
  '来週 明日 今月 データ サーバー 検索 索引 遅延 修正 完了 進捗 相談 提案 承認'
).split(' ');

/** Words that occur in about 1-2% of sheets: what people search for. The bench searches 'kubernetes' and '東京'. */
const RARE_EN = ('kubernetes postgres terraform graphql oauth stripe sentry grafana kafka nginx redis docker ' + 'lambda bigquery snowflake airflow ansible jenkins vercel netlify').split(' ');
const RARE_JA = '東京 札幌 福岡 名古屋 仙台 横浜 神戸 京都 広島 沖縄 経理 法務 採用 研修 監査 税務 物流 倉庫 在庫 発注'.split(' ');

const JA_PARTICLES = ['を', 'に', 'で', 'が', 'は', 'の', 'と', 'から', 'まで'];
const JA_ENDINGS = ['しました。', 'します。', 'が必要です。', 'を進めています。', 'について相談。', 'は完了。'];

/** Small seeded PRNG (mulberry32) so every run seeds the same text. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: T[]) => xs[Math.floor(r() * xs.length)];

function enSentence(r: Rand) {
  const n = 6 + Math.floor(r() * 8);
  const words = Array.from({ length: n }, () => (r() < 0.01 ? pick(r, RARE_EN) : pick(r, EN)));
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  if (r() < 0.3) words[2] = `<b>${words[2]}</b>`;
  return `${words.join(' ')}.`;
}

function jaSentence(r: Rand) {
  const n = 2 + Math.floor(r() * 4);
  let s = '';
  for (let i = 0; i < n; i++) s += (r() < 0.03 ? pick(r, RARE_JA) : pick(r, JA)) + pick(r, JA_PARTICLES);
  s += pick(r, JA) + pick(r, JA_ENDINGS);
  return r() < 0.2 ? s.replace(/^(.)(.)/u, '<em>$1</em>$2') : s;
}

function para(r: Rand) {
  const parts = Array.from({ length: 2 + Math.floor(r() * 3) }, () => (r() < 0.5 ? enSentence(r) : jaSentence(r)));
  return `<p>${parts.join(' ')}</p>`;
}

function block(r: Rand) {
  const x = r();
  if (x < 0.15) return `<h2>${pick(r, JA)} ${pick(r, EN)}</h2>`;
  if (x < 0.35) return `<ul>${Array.from({ length: 3 }, () => `<li>${r() < 0.5 ? enSentence(r) : jaSentence(r)}</li>`).join('')}</ul>`;
  if (x < 0.42) return `<pre><code>SELECT * FROM ${pick(r, EN)} WHERE id = ${Math.floor(r() * 1000)};</code></pre>`;
  return para(r);
}

/** One sheet's title and 1-3 columns, 1-3 KB of HTML in all. */
export function sheetContent(r: Rand): { title: string; content: Record<string, string> } {
  const target = 1024 + Math.floor(r() * 2048);
  const cols = 1 + Math.floor(r() * 3);
  const content: Record<string, string> = {};
  let size = 0;
  for (let c = 1; c <= cols; c++) {
    let html = '';
    while (size + Buffer.byteLength(html) < (target * c) / cols) html += block(r);
    size += Buffer.byteLength(html);
    content[`col${c}`] = html;
  }
  const title = r() < 0.5 ? `${pick(r, JA)}${pick(r, JA)}メモ ${Math.floor(r() * 100)}` : `${pick(r, EN)} notes ${Math.floor(r() * 100)}`;
  return { title, content };
}
