import { useEffect, useState } from 'preact/hooks';
import { api, path, useLoad } from '../api.ts';
import { CopyButton, Notice } from '../components.tsx';
import { columnOrder } from '../sheet-draft.ts';
import type { ApiResponse, SparkListItem, SparkRun } from '../types.ts';

interface Result {
  spark: string;
  sheet: string;
  column: string;
  text: string;
}

/** Visible text of a column, for the preview of what the Spark gets. */
const textOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

/** Runs one Spark (POST /v1/spark) on one column of one sheet and shows what it answered. */
export function SparksPage({ sheetId }: { sheetId?: string }) {
  const sparks = useLoad(() => api<ApiResponse<'listSparks'>>('GET', '/spark'), []);
  const sheets = useLoad(() => api<ApiResponse<'listSheets'>>('GET', '/sheets?limit=100&fields=id,title').then((r) => r.sheets), []);
  const [pick, setPick] = useState<{ sheet?: string; column?: string; spark?: string }>({ sheet: sheetId });
  const sheetPicked = pick.sheet ?? sheets.data?.[0]?.id;
  const sheet = useLoad(() => (sheetPicked ? api<ApiResponse<'getSheet'>>('GET', path`/sheets/${sheetPicked}`).then((r) => r.sheet) : Promise.resolve(undefined)), [sheetPicked]);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<Result>();
  const [error, setError] = useState<string>();
  useEffect(() => setPick((p) => ({ ...p, sheet: sheetId ?? p.sheet })), [sheetId]);

  const provider = sparks.data?.ai_provider ?? null;
  const runnable = (s: SparkListItem) => !s.requires_ai || provider !== null;
  const columns = sheet.data ? columnOrder(Object.keys(sheet.data.content)) : [];
  const column = pick.column && columns.includes(pick.column) ? pick.column : columns[0];
  const sparkId = pick.spark ?? sparks.data?.sparks.find(runnable)?.id;
  const spark = sparks.data?.sparks.find((s) => s.id === sparkId);
  const html = sheet.data && column ? sheet.data.content[column] : '';
  const preview = textOf(html).trim();

  const run = async (e: Event) => {
    e.preventDefault();
    if (!spark || !sheet.data || !column) return;
    setError(undefined);
    setRunning(true);
    try {
      const r = await api<SparkRun>('POST', '/spark', { spark_id: spark.id, content: html, sheet_id: sheet.data.id });
      setResult({ spark: r.spark_name, sheet: sheet.data.title, column, text: r.result });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <h1>Sparks</h1>
      <p class="muted">Run a Spark on a column of a sheet: word counts, format conversions, and with an AI provider summaries, proofreading and more.</p>
      <Notice error={sparks.error ?? sheets.error ?? sheet.error} />
      {sheets.data?.length === 0 && (
        <p class="notice">
          No sheets yet. <a href="#/sheets/new">Write one</a>, then run a Spark on it.
        </p>
      )}
      {sheets.data && sheets.data.length > 0 && sparks.data && (
        <form class="card spark-form" onSubmit={run}>
          <div class="spark-picks">
            <div>
              <label for="spark-sheet">Sheet</label>
              <select id="spark-sheet" name="sheet" value={sheetPicked} onChange={(e) => setPick({ ...pick, sheet: e.currentTarget.value, column: undefined })}>
                {sheet.data && !sheets.data.some((s) => s.id === sheet.data!.id) && <option value={sheet.data.id}>{sheet.data.title}</option>}
                {sheets.data.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.title}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="spark-column">Column</label>
              <select id="spark-column" name="column" value={column} onChange={(e) => setPick({ ...pick, column: e.currentTarget.value })}>
                {columns.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="spark-spark">Spark</label>
              <select id="spark-spark" name="spark" value={sparkId} onChange={(e) => setPick({ ...pick, spark: e.currentTarget.value })}>
                {sparks.data.sparks.map((s) => (
                  <option key={s.id} value={s.id} disabled={!runnable(s)}>
                    {s.name}
                    {runnable(s) ? '' : ' (needs an AI provider)'}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {spark && <p class="muted small-text">{spark.description}</p>}
          {provider === null && <p class="muted small-text">No AI provider is configured, so only the Sparks that need no model can run (docs/sparks.md says how to add one).</p>}
          <p class="spark-preview small-text" data-testid="spark-input">
            {preview ? preview.slice(0, 300) + (preview.length > 300 ? '…' : '') : 'This column is empty.'}
          </p>
          <button type="submit" disabled={running || !spark || !preview}>
            {running ? 'Running…' : 'Run Spark'}
          </button>
          {sheet.data && (
            <a class="spark-open" href={`#/sheets/${encodeURIComponent(sheet.data.id)}`}>
              Open the sheet
            </a>
          )}
        </form>
      )}
      <Notice error={error} />
      {result && (
        <section class="card" aria-live="polite">
          <div class="row spread">
            <h2>
              {result.spark}{' '}
              <span class="muted small-text">
                on {result.sheet}, {result.column}
              </span>
            </h2>
            <CopyButton text={result.text} />
          </div>
          <pre class="spark-result" data-testid="spark-result">
            {result.text}
          </pre>
        </section>
      )}
    </>
  );
}
