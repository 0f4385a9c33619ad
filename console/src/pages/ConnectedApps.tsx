import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Confirm, Notice } from '../components.tsx';
import type { ApiResponse, ConnectedApp } from '../types.ts';
import { useWorkspaceList, workspaceName } from '../workspace-names.ts';

/** Apps connected with OAuth (claude.ai, ChatGPT, Claude Desktop, ...): what each may do, and Revoke. */
export function ConnectedAppsPage() {
  const apps = useLoad(() => api<ApiResponse<'listConnectedApps'>>('GET', '/connected-apps').then((r) => r.connected_apps), []);
  // Names are looked up only when an app is held to one workspace.
  const workspaces = useWorkspaceList(!!apps.data?.some((a) => a.workspace_id !== null));
  const [confirming, setConfirming] = useState<ConnectedApp>();
  const [error, setError] = useState<string>();

  const revoke = async (app: ConnectedApp) => {
    setConfirming(undefined);
    try {
      await api('DELETE', path`/connected-apps/${app.id}`);
      apps.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <>
      <h1>Connected apps</h1>
      <section class="card">
        <p class="muted">Apps you allowed through the sign-in page (OAuth). Revoking one ends its access at once; it has to ask again.</p>
        <Notice error={error ?? apps.error} />
        {apps.data?.length === 0 && <p class="muted">No connected apps yet. See docs/connect.md to connect claude.ai, ChatGPT or Claude Desktop.</p>}
        {!!apps.data?.length && (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>App</th>
                  <th>Permissions</th>
                  <th>Workspace</th>
                  <th>Connected</th>
                  <th>Last used</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {apps.data.map((a) => (
                  <tr key={a.id} data-app-id={a.id}>
                    <td data-label="App" title={a.client_id}>
                      {a.client_name}
                    </td>
                    <td data-label="Permissions">
                      {a.scopes.map((s) => (
                        <code key={s}>{s} </code>
                      ))}
                    </td>
                    <td data-label="Workspace" class="app-workspace" title={a.workspace_id ?? undefined}>
                      {workspaceName(workspaces.data, a.workspace_id)}
                    </td>
                    <td data-label="Connected">{when(a.created_at)}</td>
                    <td data-label="Last used">{when(a.last_used_at)}</td>
                    <td>
                      <button type="button" class="small danger" onClick={() => setConfirming(a)}>
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
      {confirming && <Confirm message={`Revoke "${confirming.client_name}"? Its tokens stop working at once.`} action="Revoke" onConfirm={() => revoke(confirming)} onCancel={() => setConfirming(undefined)} />}
    </>
  );
}
