import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Confirm, CopyButton, Notice } from '../components.tsx';
import type { ApiResponse, Me, PendingWorkspaceInvitation, Workspace, WorkspaceInvitation, WorkspaceMember, WorkspaceRole } from '../types.ts';
import { workspacesChanged } from '../workspace.ts';
import { WorkspaceActivity } from './WorkspaceActivity.tsx';

const ROLES: WorkspaceRole[] = ['owner', 'admin', 'editor', 'viewer'];
const INVITABLE: WorkspaceRole[] = ['admin', 'editor', 'viewer'];
const INVITE_EXPIRIES = [
  ['24', '1 day'],
  ['168', '7 days'],
  ['720', '30 days'],
] as const;
/** Who sees the managing controls; the server decides each request and its 403 message is shown as it comes. */
const manages = (role: WorkspaceRole) => role === 'owner' || role === 'admin';

/** The link an invitee opens: the console's join page, which accepts with their own session. */
const joinLink = (token: string) => `${location.origin}${location.pathname}#/join/${token}`;

function Invite({ workspace, onMade }: { workspace: Workspace; onMade: () => void }) {
  const [role, setRole] = useState<WorkspaceRole>('editor');
  const [hours, setHours] = useState('168');
  const [made, setMade] = useState<WorkspaceInvitation>();
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await api<ApiResponse<'createWorkspaceInvitation'>>('POST', path`/workspaces/${workspace.id}/invitations`, { role, expires_in_hours: Number(hours) });
      setMade(r.invitation);
      onMade();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h2>Invite</h2>
      <p class="muted small-text">An invitation works once. Send the link to the person; they open it signed in with their own account.</p>
      <div class="row">
        <label>
          Role
          <select name="invite_role" value={role} onChange={(e) => setRole(e.currentTarget.value as WorkspaceRole)}>
            {INVITABLE.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires
          <select name="invite_expiry" value={hours} onChange={(e) => setHours(e.currentTarget.value)}>
            {INVITE_EXPIRIES.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Create invitation</button>
      </div>
      <Notice error={error} />
      {made && (
        <div class="once" role="status">
          <strong>
            Invitation ({made.role}), valid until {when(made.expires_at)}
          </strong>
          <p>Copy it now: it is shown only this once.</p>
          <div class="row">
            <code class="secret" data-testid="invitation-link">
              {joinLink(made.token)}
            </code>
            <CopyButton text={joinLink(made.token)} label="Copy link" />
          </div>
        </div>
      )}
    </form>
  );
}

/** The invitations not yet accepted: who made each, until when; Revoke ends one at once (its link then answers 404). */
function PendingInvitations({ workspace, list }: { workspace: Workspace; list: ReturnType<typeof useLoad<PendingWorkspaceInvitation[]>> }) {
  const [error, setError] = useState<string>();
  const revoke = async (inv: PendingWorkspaceInvitation) => {
    setError(undefined);
    try {
      await api('DELETE', path`/workspaces/${workspace.id}/invitations/${inv.id}`);
    } catch (err) {
      setError((err as Error).message);
    }
    list.reload();
  };
  return (
    <section class="card">
      <h2>Pending invitations</h2>
      <p class="muted small-text">An invitation also ends when the member who made it leaves, is removed or can no longer invite.</p>
      <Notice error={error ?? list.error} />
      {list.data?.length === 0 ? (
        <p class="muted">No pending invitations.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Role</th>
                <th>Invited by</th>
                <th>Made</th>
                <th>Expires</th>
                <th>Revoke</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.map((inv) => (
                <tr key={inv.id} data-invitation-id={inv.id}>
                  <td data-label="Role">{inv.role}</td>
                  <td data-label="Invited by">{inv.invited_by.name ?? inv.invited_by.user_id}</td>
                  <td data-label="Made">{when(inv.created_at)}</td>
                  <td data-label="Expires">{when(inv.expires_at)}</td>
                  <td>
                    <button type="button" class="small danger" aria-label={`Revoke the ${inv.role} invitation ${inv.id}`} onClick={() => void revoke(inv)}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Settings({ workspace, onChanged }: { workspace: Workspace; onChanged: () => void }) {
  const [name, setName] = useState(workspace.name);
  const [confirmName, setConfirmName] = useState('');
  const [error, setError] = useState<string>();
  const act = async (e: Event, fn: () => Promise<unknown>) => {
    e.preventDefault();
    setError(undefined);
    try {
      await fn();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section class="card">
      <h2>Settings</h2>
      <form
        class="row"
        onSubmit={(e) =>
          act(e, async () => {
            await api('PUT', path`/workspaces/${workspace.id}`, { name });
            workspacesChanged();
            onChanged();
          })
        }
      >
        <input name="rename" aria-label="Workspace name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        <button type="submit">Rename</button>
      </form>
      <form
        class="row"
        onSubmit={(e) =>
          act(e, async () => {
            await api('DELETE', path`/workspaces/${workspace.id}`, { confirm: confirmName });
            workspacesChanged();
            location.hash = '#/workspaces';
          })
        }
      >
        <input
          name="confirm_delete"
          aria-label={`Type ${workspace.name} to delete the workspace`}
          placeholder={`Type "${workspace.name}" to delete`}
          value={confirmName}
          onInput={(e) => setConfirmName(e.currentTarget.value)}
        />
        <button type="submit" class="danger" disabled={confirmName !== workspace.name}>
          Delete workspace
        </button>
      </form>
      <Notice error={error} />
    </section>
  );
}

/** One workspace: its members and their roles, its recent activity, leaving, and for owners and admins invitations, renaming and deleting. */
export function WorkspaceMembers({ me, workspace, onChanged }: { me: Me; workspace: Workspace; onChanged: () => void }) {
  const members = useLoad(() => api<ApiResponse<'listWorkspaceMembers'>>('GET', path`/workspaces/${workspace.id}/members`).then((r) => r.members), [workspace.id]);
  const managing = manages(workspace.role) && !workspace.personal;
  const invitations = useLoad(
    () => (managing ? api<ApiResponse<'listWorkspaceInvitations'>>('GET', path`/workspaces/${workspace.id}/invitations`).then((r) => r.invitations) : Promise.resolve([])),
    [workspace.id, managing],
  );
  const [error, setError] = useState<string>();
  const [confirm, setConfirm] = useState<{ message: string; action: string; run: () => Promise<unknown> }>();
  const act = async (fn: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await fn();
    } catch (err) {
      setError((err as Error).message);
    }
    members.reload();
    // A role change or a removal can end invitations (their maker may no longer invite).
    invitations.reload();
  };
  const setRole = (m: WorkspaceMember, role: string) =>
    act(async () => {
      await api('PUT', path`/workspaces/${workspace.id}/members/${m.user_id}`, { role });
      if (m.user_id === me.user_id) workspacesChanged();
    });
  const remove = (m: WorkspaceMember) => {
    const self = m.user_id === me.user_id;
    setConfirm({
      message: self ? `Leave "${workspace.name}"? You need a new invitation to come back.` : `Remove ${m.name} from "${workspace.name}"? Their access ends with their next request.`,
      action: self ? 'Leave' : 'Remove',
      run: () =>
        act(async () => {
          await api('DELETE', path`/workspaces/${workspace.id}/members/${m.user_id}`);
          if (self) {
            workspacesChanged();
            location.hash = '#/workspaces';
          }
        }),
    });
  };
  return (
    <>
      <h1>
        {workspace.name}{' '}
        <span class="muted small-text">
          your role: <span data-testid="my-role">{workspace.role}</span>
          {workspace.personal ? ' · personal' : ''}
        </span>
      </h1>
      <section class="card">
        <h2>Members</h2>
        <Notice error={error ?? members.error} />
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Role</th>
                <th>Joined</th>
                <th>Remove</th>
              </tr>
            </thead>
            <tbody>
              {members.data?.map((m) => (
                <tr key={m.user_id} data-member-id={m.user_id}>
                  <td data-label="Name">
                    {m.name}
                    {m.user_id === me.user_id && <span class="muted"> (you)</span>}
                  </td>
                  <td data-label="Role">
                    {manages(workspace.role) && !workspace.personal ? (
                      <select aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => void setRole(m, e.currentTarget.value)}>
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <span class="member-role">{m.role}</span>
                    )}
                  </td>
                  <td data-label="Joined">{when(m.joined_at)}</td>
                  <td>
                    {!workspace.personal &&
                      (m.user_id === me.user_id ? (
                        <button type="button" class="small ghost" onClick={() => remove(m)}>
                          Leave
                        </button>
                      ) : (
                        manages(workspace.role) && (
                          <button type="button" class="small danger" aria-label={`Remove ${m.name}`} onClick={() => remove(m)}>
                            Remove
                          </button>
                        )
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <WorkspaceActivity workspace={workspace} members={members.data} />
      {workspace.personal ? (
        <p class="muted">This is your personal workspace: make a team workspace to invite people.</p>
      ) : (
        manages(workspace.role) && (
          <>
            <Invite workspace={workspace} onMade={invitations.reload} />
            <PendingInvitations workspace={workspace} list={invitations} />
            <Settings workspace={workspace} onChanged={onChanged} />
          </>
        )
      )}
      {confirm && (
        <Confirm
          message={confirm.message}
          action={confirm.action}
          onCancel={() => setConfirm(undefined)}
          onConfirm={() => {
            const c = confirm;
            setConfirm(undefined);
            void c.run();
          }}
        />
      )}
    </>
  );
}
