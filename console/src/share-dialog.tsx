import { useRef, useState } from 'preact/hooks';
import { api, path, useLoad, when } from './api.ts';
import { CopyButton, Notice, useDialog } from './components.tsx';
import type { ApiResponse, Share, ShareListItem } from './types.ts';

/** Expiry choices in hours ('' = until revoked); the server allows up to 8760. */
const EXPIRIES = [
  ['', 'Until revoked'],
  ['24', '1 day'],
  ['168', '7 days'],
  ['720', '30 days'],
  ['8760', '1 year'],
] as const;

/**
 * Read-only links to one sheet: make one (its address is shown only now, the server keeps a hash),
 * list them with their dates, revoke one at once.
 */
export function ShareDialog({ sheetId, title, onClose }: { sheetId: string; title: string; onClose: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  useDialog(dialog, onClose);
  const list = useLoad(() => api<ApiResponse<'listSheetShares'>>('GET', path`/sheets/${sheetId}/shares`).then((r) => r.shares), [sheetId]);
  const [expiry, setExpiry] = useState('');
  const [made, setMade] = useState<Share>();
  const [error, setError] = useState<string>();
  const act = async (fn: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await fn();
      list.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const make = (e: Event) => {
    e.preventDefault();
    void act(async () => {
      const body = expiry ? { expires_in_hours: Number(expiry) } : {};
      setMade((await api<ApiResponse<'createSheetShare'>>('POST', path`/sheets/${sheetId}/shares`, body)).share);
    });
  };
  const revoke = (s: ShareListItem) =>
    act(async () => {
      await api('DELETE', path`/sheets/${sheetId}/shares/${s.id}`);
      if (made?.id === s.id) setMade(undefined);
    });
  const now = new Date().toISOString();
  return (
    <div class="modal-backdrop">
      <div class="modal share" ref={dialog} role="dialog" aria-modal="true" aria-label={`Share "${title}"`}>
        <div class="row spread">
          <h2>Share a read-only link</h2>
          <button type="button" class="small ghost" onClick={onClose}>
            Close
          </button>
        </div>
        <p class="muted small-text">Anyone with the link reads this sheet, without signing in. Revoking ends it at once.</p>
        <form class="row" onSubmit={make}>
          <label>
            Expires
            <select name="expiry" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
              {EXPIRIES.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Make a link</button>
        </form>
        <Notice error={error ?? list.error} />
        {made && (
          <div class="once" role="status">
            <strong>New link</strong>
            <p>Copy it now: it is shown only this once.</p>
            <div class="row">
              <code class="secret" data-testid="share-url">
                {made.url}
              </code>
              <CopyButton text={made.url} label="Copy link" />
            </div>
          </div>
        )}
        {list.data?.length === 0 && <p class="muted">No links yet.</p>}
        {!!list.data?.length && (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Expires</th>
                  <th>Revoke</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((s) => (
                  <tr key={s.id} data-share-id={s.id}>
                    <td data-label="Created">{when(s.created_at)}</td>
                    <td data-label="Expires">{s.expires_at === null ? 'never' : s.expires_at <= now ? `expired ${when(s.expires_at)}` : when(s.expires_at)}</td>
                    <td>
                      <button type="button" class="small danger" aria-label={`Revoke the link made ${when(s.created_at)}`} onClick={() => void revoke(s)}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}
