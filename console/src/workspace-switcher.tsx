import { useEffect, useRef, useState } from 'preact/hooks';
import { api, useLoad } from './api.ts';
import type { ApiResponse, Me, Workspace } from './types.ts';
import { personalWorkspaceId } from '../../src/lib/workspace-ids.ts';
import { chooseWorkspace, onWorkspacesChanged, useWorkspace } from './workspace.ts';

/** Pages whose address can name one record: a switch goes back to their list, in the new workspace. */
const RECORD_PAGES = ['sheets', 'sessions', 'sparks'];
function switchTo(workspaceId: string) {
  chooseWorkspace(workspaceId);
  const [page, id] = location.hash.replace(/^#\/?/, '').split('/');
  if (id && RECORD_PAGES.includes(page)) location.hash = `#/${page}`;
}

const roleNote = (w: Workspace) => (w.personal ? 'personal' : w.role === 'viewer' ? 'view only' : w.role);

/**
 * The header's workspace picker (a disclosure button over a list, so no page gains a form control): every
 * workspace of GET /v1/workspaces; the record pages list and create in the chosen one. A remembered
 * workspace the person no longer belongs to falls back to the personal one.
 */
export function WorkspaceSwitcher({ me }: { me: Me }) {
  const current = useWorkspace();
  const [open, setOpen] = useState(false);
  const personal = current === personalWorkspaceId(me.user_id);
  // In the personal workspace a page load asks for nothing more than before teams: the list comes when
  // the switcher opens. A remembered team workspace is looked up at once, to name it and check it still is one.
  const needed = open || !personal;
  const list = useLoad(() => (needed ? api<ApiResponse<'listWorkspaces'>>('GET', '/workspaces').then((r) => r.workspaces) : Promise.resolve(undefined)), [me.user_id, needed]);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => onWorkspacesChanged(list.reload), [list.reload]);
  useEffect(() => {
    if (list.data && current && !list.data.some((w) => w.id === current)) chooseWorkspace(personalWorkspaceId(me.user_id));
  }, [list.data, current, me.user_id]);
  const listed = !!list.data;
  useEffect(() => {
    const items = open && listed ? box.current?.querySelector('#workspace-list') : undefined;
    (items?.querySelector<HTMLElement>('[aria-current=true]') ?? items?.querySelector<HTMLElement>('button'))?.focus();
  }, [open, listed]);
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => !box.current?.contains(e.target as Node) && setOpen(false);
    const key = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      box.current?.querySelector<HTMLElement>('.switcher-toggle')?.focus();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('focusin', away);
    document.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('focusin', away);
      document.removeEventListener('keydown', key);
    };
  }, [open]);
  const inUse = list.data?.find((w) => w.id === current);
  const name = inUse?.name ?? (personal ? 'Personal' : '…');
  return (
    <div class="switcher" ref={box}>
      <button
        type="button"
        class="small ghost switcher-toggle"
        aria-expanded={open}
        aria-controls="workspace-list"
        aria-label={`Workspace: ${name}`}
        title={list.error ?? 'The workspace the pages show and create in'}
        data-workspace-id={current}
        onClick={() => setOpen(!open)}
      >
        <span class="switcher-name">{name}</span> <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul id="workspace-list" class="switcher-list" aria-label="Workspaces">
          {!list.data && <li class="muted pad">Loading…</li>}
          {(list.data ?? []).map((w) => (
            <li key={w.id}>
              <button
                type="button"
                class="ghost"
                aria-current={w.id === current ? 'true' : undefined}
                data-workspace-id={w.id}
                onClick={() => {
                  setOpen(false);
                  switchTo(w.id);
                }}
              >
                {w.name} <span class="muted small-text">{roleNote(w)}</span>
              </button>
            </li>
          ))}
          <li>
            <a href="#/workspaces" onClick={() => setOpen(false)}>
              Manage workspaces…
            </a>
          </li>
        </ul>
      )}
    </div>
  );
}
