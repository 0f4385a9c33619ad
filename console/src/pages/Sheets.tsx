import { useState } from 'preact/hooks';
import { api, useLoad, when } from '../api.ts';
import { Notice } from '../components.tsx';
import { useLive } from '../live.ts';
import { Revisions } from './Revisions.tsx';
import { SheetEditor } from './SheetEditor.tsx';
import type { ApiResponse } from '../types.ts';

export function SheetsPage({ sheetId, sub }: { sheetId?: string; sub?: string }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const [trashed, setTrashed] = useState(false);
  const list = useLoad(() => api<ApiResponse<'listSheets'>>('GET', `/sheets?limit=100&trashed=${trashed}${query ? `&q=${encodeURIComponent(query)}` : ''}`), [query, trashed]);
  // Agents' writes show up without a reload.
  useLive(['sheet.created', 'sheet.updated', 'sheet.deleted'], () => !sheetId && list.reload(), 300);
  if (sheetId) return sub === 'revisions' && sheetId !== 'new' ? <Revisions id={sheetId} /> : <SheetEditor id={sheetId} />;
  // Nothing is stored yet: the editor creates the sheet when there is something in it.
  const create = () => {
    location.hash = '#/sheets/new';
  };
  return (
    <>
      <div class="row spread">
        <h1>Sheets</h1>
        <button type="button" onClick={create}>
          New sheet
        </button>
      </div>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(q);
        }}
      >
        <input type="search" name="q" aria-label="Search sheets" placeholder="Search titles and text" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">Search</button>
        <label class="check">
          <input type="checkbox" checked={trashed} onChange={() => setTrashed(!trashed)} /> Trash
        </label>
      </form>
      <Notice error={list.error} />
      {list.data && <p class="muted">{list.data.total} sheet(s)</p>}
      <ul class="list">
        {list.data?.sheets.map((s) => (
          <li key={s.id}>
            <a href={`#/sheets/${s.id}`}>{s.title}</a>
            <span class="muted small-text">
              {s.folder ? `${s.folder} · ` : ''}
              {when(s.updatedAt)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
