import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Confirm, Notice, SafeHtml } from '../components.tsx';

export interface Sheet { id: string; title: string; content: Record<string, string>; folder: string | null; tags: string[]; createdAt: string; updatedAt: string; trashedAt: string | null }

const FORMATS = ['markdown', 'html', 'txt', 'json'] as const;

/** Columns in numeric order, each rendered through the sanitizer. */
export function SheetBody({ sheet }: { sheet: Sheet }) {
  const keys = Object.keys(sheet.content).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
  return (
    <div class="columns">
      {keys.map((k) => <SafeHtml key={k} class="column rendered" html={sheet.content[k]} />)}
    </div>
  );
}

function SheetView({ id }: { id: string }) {
  const sheet = useLoad(() => api<{ sheet: Sheet }>('GET', path`/sheets/${id}`).then((r) => r.sheet), [id]);
  const [msg, setMsg] = useState<{ error?: string; url?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const s = sheet.data;
  const run = async (fn: () => Promise<unknown>) => {
    setMsg({});
    try {
      await fn();
      sheet.reload();
    } catch (err) {
      setMsg({ error: (err as Error).message });
    }
  };
  const exportAs = async (format: string) => {
    setMsg({});
    try {
      const r = await api<{ url: string }>('POST', path`/sheets/${id}/export`, { format });
      setMsg({ url: r.url });
    } catch (err) {
      setMsg({ error: (err as Error).message });
    }
  };
  return (
    <section class="card sheet-view">
      <a href="#/sheets">← All sheets</a>
      <Notice error={sheet.error ?? msg.error} />
      {s && (
        <>
          <h2>{s.title}</h2>
          <p class="muted">
            {s.folder ? `${s.folder} · ` : ''}updated {when(s.updatedAt)}{s.tags.length ? ` · ${s.tags.join(', ')}` : ''}
            {s.trashedAt && ` · in the trash since ${when(s.trashedAt)}`}
          </p>
          <div class="row">
            {s.trashedAt
              ? <button type="button" class="small" onClick={() => run(() => api('POST', path`/sheets/${id}/restore`))}>Restore</button>
              : <button type="button" class="small danger" onClick={() => setConfirming(true)}>Move to trash</button>}
            <span class="muted">Export:</span>
            {FORMATS.map((f) => <button key={f} type="button" class="small ghost" onClick={() => exportAs(f)}>{f}</button>)}
          </div>
          {msg.url && <p class="notice">Export ready (link valid 24 hours): <a href={msg.url} class="export-link">{msg.url}</a></p>}
          <SheetBody sheet={s} />
          {confirming && (
            <Confirm message={`Move "${s.title}" to the trash?`} action="Move to trash" onCancel={() => setConfirming(false)}
              onConfirm={() => { setConfirming(false); void run(() => api('DELETE', path`/sheets/${s.id}`)); }} />
          )}
        </>
      )}
    </section>
  );
}

export function SheetsPage({ sheetId }: { sheetId?: string }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const [trashed, setTrashed] = useState(false);
  const list = useLoad(
    () => api<{ sheets: Sheet[]; total: number }>('GET', `/sheets?limit=100&trashed=${trashed}${query ? `&q=${encodeURIComponent(query)}` : ''}`),
    [query, trashed],
  );
  if (sheetId) return <SheetView id={sheetId} />;
  return (
    <>
      <h1>Sheets</h1>
      <form class="row" onSubmit={(e) => { e.preventDefault(); setQuery(q); }}>
        <input type="search" name="q" placeholder="Search titles and text" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">Search</button>
        <label class="check"><input type="checkbox" checked={trashed} onChange={() => setTrashed(!trashed)} /> Trash</label>
      </form>
      <Notice error={list.error} />
      {list.data && <p class="muted">{list.data.total} sheet(s)</p>}
      <ul class="list">
        {list.data?.sheets.map((s) => (
          <li key={s.id}>
            <a href={`#/sheets/${s.id}`}>{s.title}</a>
            <span class="muted small-text">{s.folder ? `${s.folder} · ` : ''}{when(s.updatedAt)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
