import { useState } from 'preact/hooks';
import { api, download, path, useLoad, when } from '../api.ts';
import { Badge, Confirm, Notice, ShownOnce } from '../components.tsx';
import type { ApiKey, ApiResponse, Me } from '../types.ts';
import { EVERY_WORKSPACE, useWorkspaceList, workspaceName } from '../workspace-names.ts';

export function AccountPage({ me }: { me: Me }) {
  const keys = useLoad(() => api<ApiResponse<'listApiKeys'>>('GET', '/api-keys').then((r) => r.api_keys), []);
  const workspaces = useWorkspaceList(true);
  const [name, setName] = useState('');
  /** The workspace a new key is restricted to; '' for every workspace. */
  const [keyWorkspace, setKeyWorkspace] = useState('');
  const [created, setCreated] = useState<string>();
  const [confirming, setConfirming] = useState<ApiKey>();
  const [error, setError] = useState<string>();
  const [exporting, setExporting] = useState(false);
  const exportAll = async () => {
    setExporting(true);
    setError(undefined);
    try {
      await download('/account/export', 'sheet-workspace-export.zip');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setExporting(false);
    }
  };

  const create = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await api<ApiResponse<'createApiKey'>>('POST', '/api-keys', { name, workspace_id: keyWorkspace || null });
      setCreated(r.api_key);
      setName('');
      setKeyWorkspace('');
      keys.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const disable = async (key: ApiKey) => {
    setConfirming(undefined);
    try {
      await api('DELETE', path`/api-keys/${key.id}`);
      keys.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <>
      <h1>API keys</h1>
      <p class="muted">
        Plan: <Badge value={me.plan} /> · usage and work hours are on <a href="#/stats">Stats</a>.
      </p>
      <section class="card">
        <h2>Your keys</h2>
        <form class="row" onSubmit={create}>
          <input name="key_name" aria-label="Key name" placeholder="Key name, e.g. laptop" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} />
          <label class="inline">
            Workspace
            <select name="key_workspace" value={keyWorkspace} onChange={(e) => setKeyWorkspace(e.currentTarget.value)} title="The key reaches only this workspace; other workspaces answer 403">
              <option value="">{EVERY_WORKSPACE}</option>
              {workspaces.data?.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Create key</button>
        </form>
        {created && <ShownOnce label="New API key" value={created} onDone={() => setCreated(undefined)} />}
        <Notice error={error ?? keys.error} />
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Prefix</th>
                <th>Workspace</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.data?.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td data-label="Name">{k.name}</td>
                  <td data-label="Prefix">
                    <code>{k.prefix}…</code>
                  </td>
                  <td data-label="Workspace" class="key-workspace" title={k.workspace_id ?? undefined}>
                    {workspaceName(workspaces.data, k.workspace_id)}
                  </td>
                  <td data-label="Created">{when(k.created_at)}</td>
                  <td data-label="Last used">{when(k.last_used_at)}</td>
                  <td data-label="Status">
                    <Badge value={k.status} />
                  </td>
                  <td>
                    {k.status === 'active' && (
                      <button type="button" class="small danger" onClick={() => setConfirming(k)}>
                        Disable
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section class="card">
        <h2>Your data</h2>
        <p class="muted">
          Every record of this account in one zip: JSON for programs and Markdown for people. Another instance takes it with <code>npm run cli -- users import</code>.
        </p>
        <button type="button" onClick={exportAll} disabled={exporting}>
          {exporting ? 'Preparing the zip…' : 'Download all my data (.zip)'}
        </button>
      </section>
      <section class="card">
        <h2>Workspaces</h2>
        <p class="muted">Team workspaces, their members and invitations, and accepting an invitation you were sent.</p>
        <a href="#/workspaces">Open workspaces</a>
      </section>
      {confirming && (
        <Confirm
          message={`Disable the key "${confirming.name}" (${confirming.prefix}…)? Programs using it stop working at once. This cannot be undone.`}
          action="Disable key"
          onConfirm={() => disable(confirming)}
          onCancel={() => setConfirming(undefined)}
        />
      )}
    </>
  );
}
