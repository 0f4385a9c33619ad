import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Badge, Notice } from '../components.tsx';
import type { ApiResponse, Me, Workspace } from '../types.ts';
import { chooseWorkspace, useWorkspace, workspacesChanged } from '../workspace.ts';
import { WorkspaceMembers } from './WorkspaceMembers.tsx';

/** Invitation tokens are `inv_` + 43 base64url characters (workspaces.service.ts); anything else is refused before a request. */
const TOKEN_FORMAT = /^inv_[A-Za-z0-9_-]{20,100}$/;
/** A pasted console link, API link or bare token: the token in it. */
export const tokenFrom = (text: string) => /inv_[A-Za-z0-9_-]+/.exec(text.trim())?.[0] ?? text.trim();

function CreateWorkspace({ me, onCreated }: { me: Me; onCreated: (w: Workspace) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await api<ApiResponse<'createWorkspace'>>('POST', '/workspaces', { name });
      setName('');
      workspacesChanged();
      onCreated(r.workspace);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h2>New team workspace</h2>
      {me.plan === 'free' && <p class="muted small-text">Team workspaces come with the Pro plan.</p>}
      <div class="row">
        <input name="workspace_name" aria-label="Workspace name" placeholder="Team name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        <button type="submit">Create workspace</button>
      </div>
      <Notice error={error} />
    </form>
  );
}

/** Accepting an invitation: a pasted token or link, or console/#/join/<token> filled in. Nothing is accepted without the click. */
export function JoinWorkspace({ initialToken = '', onJoined }: { initialToken?: string; onJoined: (w: Workspace) => void }) {
  const [text, setText] = useState(initialToken);
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const token = tokenFrom(text);
    if (!TOKEN_FORMAT.test(token)) return setError('That is not an invitation token: it starts with inv_ (paste the whole link you were sent).');
    try {
      const r = await api<ApiResponse<'acceptWorkspaceInvitation'>>('POST', path`/invitations/${token}/accept`);
      setText('');
      workspacesChanged();
      onJoined(r.workspace);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h2>Accept an invitation</h2>
      <div class="row">
        <input name="invitation" aria-label="Invitation link or token" placeholder="inv_... or the link you were sent" value={text} onInput={(e) => setText(e.currentTarget.value)} required />
        <button type="submit">Accept invitation</button>
      </div>
      <Notice error={error} />
    </form>
  );
}

/** The list (also under #/join/<token>) or one workspace; the shell mounts it afresh per workspace, so no stale role or list shows while the new one loads. */
export function WorkspacesPage({ me, workspaceId, joinToken }: { me: Me; workspaceId?: string; joinToken?: string }) {
  const list = useLoad(() => api<ApiResponse<'listWorkspaces'>>('GET', '/workspaces').then((r) => r.workspaces), [workspaceId]);
  const [joined, setJoined] = useState<Workspace>();
  const inUse = useWorkspace();
  if (workspaceId) {
    const ws = list.data?.find((w) => w.id === workspaceId);
    return (
      <>
        <p>
          <a href="#/workspaces">← All workspaces</a>
        </p>
        <Notice error={list.error} />
        {list.data && !ws && (
          <p class="notice error" role="alert">
            You are not a member of this workspace (or it no longer exists).
          </p>
        )}
        {ws && <WorkspaceMembers me={me} workspace={ws} onChanged={list.reload} />}
      </>
    );
  }
  const open = (w: Workspace) => {
    location.hash = `#/workspaces/${encodeURIComponent(w.id)}`;
  };
  return (
    <>
      <h1>Workspaces</h1>
      <p class="muted">Sheets, sessions, knowledge, todos, Sparks, stats and webhooks belong to a workspace: the one chosen at the top of the page is where they are listed and made.</p>
      <Notice error={list.error} />
      {joined && (
        <Notice>
          You joined <strong>{joined.name}</strong> as {joined.role}.
        </Notice>
      )}
      {list.data && (
        <section class="card">
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Your role</th>
                  <th>Kind</th>
                  <th>Created</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.data.map((w) => (
                  <tr key={w.id} data-workspace-id={w.id}>
                    <td data-label="Name">
                      <a href={`#/workspaces/${encodeURIComponent(w.id)}`}>{w.name}</a>
                    </td>
                    <td data-label="Your role" class="workspace-role">
                      <Badge value={w.role} />
                    </td>
                    <td data-label="Kind">{w.personal ? 'personal' : 'team'}</td>
                    <td data-label="Created">{when(w.created_at)}</td>
                    <td>
                      {w.id === inUse ? (
                        <span class="muted">in use</span>
                      ) : (
                        <button type="button" class="small ghost" aria-label={`Work in ${w.name}`} onClick={() => chooseWorkspace(w.id)}>
                          Work here
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <CreateWorkspace me={me} onCreated={open} />
      <JoinWorkspace
        key={joinToken}
        initialToken={joinToken}
        onJoined={(w) => {
          setJoined(w);
          if (joinToken) location.hash = '#/workspaces';
          list.reload();
        }}
      />
    </>
  );
}
