import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, path, when } from '../api.ts';
import { Confirm, Notice } from '../components.tsx';
import { useLive } from '../live.ts';
import { RichText } from '../rich-text.tsx';
import { ShareDialog } from '../share-dialog.tsx';
import { columnOrder, draftOf, isDirty, mergeRemote, patchOf, type Draft } from '../sheet-draft.ts';
import type { ApiResponse, Sheet } from '../types.ts';

const FORMATS = ['markdown', 'html', 'txt', 'json'] as const;
const AUTOSAVE_MS = 2000;

interface State {
  base?: Sheet;
  draft?: Draft;
  saving?: boolean;
  /** 412 on save: the version the sheet is at now. */
  conflict?: number;
  /** A live update changed fields the person had also changed. */
  clashes?: string[];
  error?: string;
  url?: string;
  /** The newest version a live event announced while a save was in flight (our own save's event among them). */
  heardWhileSaving?: number;
  confirm?: { message: string; action: string; run: () => Promise<unknown> };
  sharing?: boolean;
}

const ifMatch = (s: Sheet) => ({ 'If-Match': `"${s.version}"` });

/** "New sheet" opens this: nothing is stored until the person types something (version 0 = not stored yet). */
const UNSAVED: Sheet = { id: '', title: '', content: { col1: '' }, folder: null, tags: [], createdAt: '', updatedAt: '', trashedAt: null, version: 0, workspace_id: '' };
const isUnsaved = (s: Sheet | undefined) => s?.version === 0;

/** The POST /sheets body for a first save: only fields with something in them. */
function createBody(d: Draft) {
  const body = patchOf(draftOf(UNSAVED), d, true) as { title: string; folder: string | null; tags: string[]; content: Record<string, string> };
  return { title: body.title, content: body.content, tags: body.tags, ...(body.folder ? { folder: body.folder } : {}) };
}

/**
 * One sheet, editable: every save sends If-Match, live updates merge into unsaved text. `id` "new" is a
 * sheet not stored yet: its first save creates it and the address becomes the new id.
 */
export function SheetEditor({ id: routeId }: { id: string }) {
  const st = useRef<State>({});
  const [, bump] = useState(0);
  const set = (p: Partial<State>) => {
    Object.assign(st.current, p);
    bump((n) => n + 1);
  };
  const { base, draft } = st.current;
  // The stored id: the route's, or the one the first save of a new sheet got.
  const id = base?.id || routeId;
  const dirty = !!base && !!draft && isDirty(draftOf(base), draft);

  const load = async () => {
    const { sheet } = await api<ApiResponse<'getSheet'>>('GET', path`/sheets/${st.current.base?.id || routeId}`);
    return sheet;
  };
  const reload = async () => {
    if (routeId === 'new' && !st.current.base?.id) return set({ base: UNSAVED, draft: draftOf(UNSAVED) });
    try {
      const sheet = await load();
      set({ base: sheet, draft: draftOf(sheet), conflict: undefined, clashes: undefined, error: undefined });
    } catch (err) {
      set({ error: (err as Error).message });
    }
  };
  useEffect(() => {
    if (st.current.base?.id === routeId) return; // the address of a new sheet just became its id
    clearTimeout(autosave.current);
    st.current = {};
    void reload();
    // Only a change of address reloads; `reload` reads the current state through `st`.
  }, [routeId]);

  /** A newer server version arrived (live event or an action's answer): merge it under the person's edits. */
  const adopt = (remote: Sheet) => {
    const { base: b, draft: d } = st.current;
    if (!b || !d || remote.version < b.version) return;
    const merged = mergeRemote(draftOf(b), d, draftOf(remote));
    const clashes = [...new Set([...(st.current.clashes ?? []), ...merged.clashes])];
    set({ base: remote, draft: merged.draft, clashes: clashes.length ? clashes : undefined });
  };

  useLive(['sheet.updated', 'sheet.deleted'], (e) => {
    const b = st.current.base;
    if (!b || isUnsaved(b) || e.data.sheet_id !== b.id || (typeof e.data.version === 'number' && e.data.version <= b.version)) return;
    if (st.current.saving) {
      st.current.heardWhileSaving = Math.max(st.current.heardWhileSaving ?? 0, typeof e.data.version === 'number' ? e.data.version : Infinity);
      return;
    }
    load().then(adopt, (err: ApiError) => err.status === 404 && set({ error: 'This sheet was deleted elsewhere. Your unsaved text is still on this page.' }));
  });

  const save = async (keepMine = false, rebased = false): Promise<void> => {
    const s = st.current;
    if (!s.base || !s.draft || s.saving || (s.conflict && !keepMine)) return;
    let target = s.base;
    if (keepMine) target = await load();
    const sent = s.draft;
    const body = patchOf(draftOf(target), sent, keepMine);
    if (!body) return;
    set({ saving: true, error: undefined, heardWhileSaving: undefined });
    try {
      const { sheet } = isUnsaved(target)
        ? await api<ApiResponse<'createSheet'>>('POST', '/sheets', createBody(sent))
        : await api<ApiResponse<'updateSheet'>>('PUT', path`/sheets/${target.id}`, body, ifMatch(target));
      // What was typed during the save stays; what was sent takes the server's stored form.
      const now = st.current.draft!;
      const next = draftOf(sheet);
      const draftNow: Draft = { ...next, content: { ...next.content } };
      for (const f of ['title', 'folder', 'tags'] as const) if (now[f] !== sent[f]) draftNow[f] = now[f];
      for (const k of Object.keys(now.content)) if (now.content[k] !== sent.content[k]) draftNow.content[k] = now.content[k];
      set({ base: sheet, draft: draftNow, saving: false, conflict: undefined, clashes: undefined });
      if (isUnsaved(target)) location.replace(`#/sheets/${encodeURIComponent(sheet.id)}`);
      if ((st.current.heardWhileSaving ?? 0) > sheet.version) load().then(adopt, () => {});
    } catch (err) {
      const e = err as ApiError;
      if (e.status === 412 && !keepMine && !rebased) {
        // Usually an agent's write the live stream had not brought yet: when it touched none of the
        // fields the person changed, take it in as a live update would and save again, once.
        const remote = await load().catch(() => undefined);
        const merged = remote && remote.version > target.version ? mergeRemote(draftOf(target), st.current.draft!, draftOf(remote)) : undefined;
        if (remote && merged && merged.clashes.length === 0) {
          set({ saving: false, base: remote, draft: merged.draft });
          return save(false, true);
        }
      }
      if (e.status === 412) set({ saving: false, conflict: Number(e.body.current_version) || 0 });
      else set({ saving: false, error: e.message });
    }
  };

  // Autosave 2 s after the person's last edit; Ctrl/Cmd+S at once. Only their edits restart the
  // timer: re-renders (an agent's live edit every second) must not hold the save off.
  const autosave = useRef<ReturnType<typeof setTimeout>>(undefined);
  const scheduleAutosave = () => {
    clearTimeout(autosave.current);
    autosave.current = setTimeout(() => {
      const s = st.current;
      if (s.saving) return scheduleAutosave(); // what was typed during that save goes next
      if (s.base && s.draft && s.conflict === undefined && !s.base.trashedAt && isDirty(draftOf(s.base), s.draft)) void save();
    }, AUTOSAVE_MS);
  };
  useEffect(() => () => clearTimeout(autosave.current), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void save();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
    // Bound again per sheet (`id`); `save` reads the current state through `st`.
  }, [id]);

  const edit = (p: Partial<Draft>) => {
    set({ draft: { ...st.current.draft!, ...p } });
    scheduleAutosave();
  };
  const editColumn = (k: string, html: string) => edit({ content: { ...st.current.draft!.content, [k]: html } });
  const act = async (fn: () => Promise<{ sheet?: Sheet } | unknown>) => {
    set({ error: undefined, url: undefined });
    try {
      const r = (await fn()) as { sheet?: Sheet };
      if (r?.sheet) adopt(r.sheet);
      else await reload();
    } catch (err) {
      const e = err as ApiError;
      if (e.status === 412) set({ conflict: Number(e.body.current_version) || 0 });
      else set({ error: e.message });
    }
  };
  const ask = (message: string, action: string, run: () => Promise<unknown>) => set({ confirm: { message, action, run } });
  const exportAs = async (format: string) => {
    try {
      const r = await api<ApiResponse<'exportSheet'>>('POST', path`/sheets/${id}/export`, { format });
      set({ url: r.url, error: undefined });
    } catch (err) {
      set({ error: (err as Error).message });
    }
  };

  if (!base || !draft) {
    return (
      <section class="card sheet-view">
        <a href="#/sheets">← All sheets</a>
        <Notice error={st.current.error}>{st.current.error ? undefined : 'Loading…'}</Notice>
      </section>
    );
  }
  const trashed = !!base.trashedAt;
  const unsaved = isUnsaved(base);
  const { conflict, clashes, confirm } = st.current;
  return (
    <section class="card sheet-view">
      <div class="row spread">
        <a href="#/sheets">← All sheets</a>
        {!unsaved && (
          <span class="row-links">
            <a href={`#/sparks/${encodeURIComponent(id)}`}>Run a Spark</a>
            <a href={`#/sheets/${encodeURIComponent(id)}/revisions`}>History</a>
            {!trashed && (
              <button type="button" class="small" aria-haspopup="dialog" onClick={() => set({ sharing: true })}>
                Share
              </button>
            )}
          </span>
        )}
      </div>
      <Notice error={st.current.error} />
      {conflict !== undefined && (
        <div class="banner" role="alert" data-testid="conflict-banner">
          <span>This sheet was changed elsewhere (now version {conflict}). Your text is still here, not saved.</span>
          <button type="button" class="small" onClick={() => void reload()}>
            Reload theirs
          </button>
          <button type="button" class="small" onClick={() => void save(true)}>
            Keep mine as a new version
          </button>
        </div>
      )}
      {conflict === undefined && clashes && (
        <div class="banner" role="alert" data-testid="clash-banner">
          <span>Changed elsewhere while you were editing: {clashes.join(', ')}. Your unsaved text is kept; saving writes yours.</span>
          <button type="button" class="small" onClick={() => void reload()}>
            Reload theirs
          </button>
          <button type="button" class="small ghost" onClick={() => set({ clashes: undefined })}>
            Keep mine
          </button>
        </div>
      )}
      <div class="sheet-meta">
        <label class="grow">
          Title
          <input name="title" placeholder="Untitled" value={draft.title} disabled={trashed} onInput={(e) => edit({ title: e.currentTarget.value })} />
        </label>
        <label>
          Folder
          <input name="folder" value={draft.folder} disabled={trashed} onInput={(e) => edit({ folder: e.currentTarget.value })} />
        </label>
        <label>
          Tags
          <input name="tags" placeholder="comma, separated" value={draft.tags} disabled={trashed} onInput={(e) => edit({ tags: e.currentTarget.value })} />
        </label>
      </div>
      <div class="row">
        <button type="button" onClick={() => void save()} disabled={trashed || !dirty || st.current.saving}>
          Save
        </button>
        <span class="muted" data-testid="save-state" aria-live="polite">
          {st.current.saving ? 'Saving…' : dirty ? 'Unsaved changes' : unsaved ? 'Not stored yet: it is saved once you write something' : `Saved · version ${base.version} · ${when(base.updatedAt)}`}
        </span>
        {unsaved ? null : trashed ? (
          <>
            <span class="muted">In the trash since {when(base.trashedAt)}</span>
            <button type="button" class="small" onClick={() => void act(() => api('POST', path`/sheets/${id}/restore`))}>
              Restore
            </button>
            <button
              type="button"
              class="small danger"
              onClick={() =>
                ask(`Delete "${base.title}" for good? Its history goes too. This cannot be undone.`, 'Delete forever', () =>
                  act(async () => {
                    await api('DELETE', `${path`/sheets/${id}`}?permanent=true`);
                    location.hash = '#/sheets';
                  }),
                )
              }
            >
              Delete forever
            </button>
          </>
        ) : (
          <button type="button" class="small danger" onClick={() => ask(`Move "${base.title}" to the trash?`, 'Move to trash', () => act(() => api('DELETE', path`/sheets/${id}`, undefined, ifMatch(base))))}>
            Move to trash
          </button>
        )}
        {!unsaved && <span class="muted">Export:</span>}
        {!unsaved &&
          FORMATS.map((f) => (
            <button key={f} type="button" class="small ghost" onClick={() => void exportAs(f)}>
              {f}
            </button>
          ))}
      </div>
      {st.current.url && (
        <p class="notice">
          Export ready (link valid 24 hours):{' '}
          <a href={st.current.url} class="export-link">
            {st.current.url}
          </a>
        </p>
      )}
      <div class="columns editing">
        {columnOrder(Object.keys(draft.content)).map((k) => (
          <div class="column" key={k}>
            <div class="row spread">
              <strong>{k}</strong>
              {!trashed && !unsaved && (
                <button
                  type="button"
                  class="small ghost"
                  aria-label={`Remove ${k}`}
                  onClick={() =>
                    ask(`Remove column ${k} and its text?`, 'Remove column', () =>
                      act(async () => {
                        const r = await api<ApiResponse<'removeSheetColumn'>>('DELETE', path`/sheets/${id}/columns/${k}`, undefined, ifMatch(st.current.base!));
                        const d = st.current.draft!;
                        const content = { ...d.content };
                        delete content[k];
                        st.current.draft = { ...d, content };
                        return r;
                      }),
                    )
                  }
                >
                  Remove
                </button>
              )}
            </div>
            <RichText label={k} html={draft.content[k]} readOnly={trashed} onChange={(html) => editColumn(k, html)} />
          </div>
        ))}
      </div>
      {!trashed && !unsaved && (
        <button type="button" class="small" onClick={() => void act(() => api('POST', path`/sheets/${id}/columns`, {}, ifMatch(st.current.base!)))}>
          Add column
        </button>
      )}
      {confirm && (
        <Confirm
          message={confirm.message}
          action={confirm.action}
          onCancel={() => set({ confirm: undefined })}
          onConfirm={() => {
            const c = confirm;
            set({ confirm: undefined });
            void c.run();
          }}
        />
      )}
      {st.current.sharing && <ShareDialog sheetId={id} title={base.title} onClose={() => set({ sharing: false })} />}
    </section>
  );
}
