import { diffWords } from 'diff';
import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Confirm, Notice } from '../components.tsx';
import { useMemberNames } from '../members.ts';
import { columnOrder } from '../sheet-draft.ts';
import type { Actor, ApiResponse, Revision } from '../types.ts';
import { isPersonalWorkspace, workspaceInUse } from '../workspace.ts';

/** Who made a version, in words: the key's name, "console (key name)", or the connected app. */
export function byWhom(actor: Actor): string {
  if (!actor) return 'unknown (made before authors were recorded)';
  if (actor.type === 'console') return actor.name ? `console (${actor.name})` : 'console';
  if (actor.type === 'oauth_client') return actor.name ? `${actor.name} (connected app)` : 'connected app';
  return actor.name ? `${actor.name} (API key)` : 'API key';
}
/** The By cell: in a team workspace the member's name first, then the credential they wrote with. */
function By({ actor, member }: { actor: Actor; member: (id: string | null | undefined) => string | undefined }) {
  const name = member(actor?.user_id);
  return (
    <td data-label="By" class="by">
      {name && (
        <>
          <strong class="member">{name}</strong>
          {' · '}
        </>
      )}
      {byWhom(actor)}
    </td>
  );
}
const BLOCKS = 'p,li,h1,h2,h3,h4,h5,h6,pre,blockquote,tr,div';

/** Readable text of a column: one line per block, so the diff reads like the page, not like markup. */
function textOf(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll('br').forEach((br) => br.replaceWith('\n'));
  doc.querySelectorAll(BLOCKS).forEach((el) => el.append('\n'));
  doc.querySelectorAll('li').forEach((el) => el.prepend('• '));
  return (doc.body.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}

function Diff({ label, from, to }: { label: string; from: string; to: string }) {
  if (from === to) return null;
  return (
    <div class="diff" data-field={label}>
      <strong>{label}</strong>
      <pre>{diffWords(from, to).map((part, i) => (part.added ? <ins key={i}>{part.value}</ins> : part.removed ? <del key={i}>{part.value}</del> : <span key={i}>{part.value}</span>))}</pre>
    </div>
  );
}

function fields(v: Revision): Record<string, string> {
  const out: Record<string, string> = { Title: v.title, Folder: v.folder ?? '', Tags: v.tags.join(', ') };
  for (const k of columnOrder(Object.keys(v.content))) out[k] = textOf(v.content[k]);
  return out;
}

/** A sheet's history: pick any two versions, read what changed, restore an earlier one. */
export function Revisions({ id }: { id: string }) {
  const [tick, setTick] = useState(0);
  const data = useLoad(async () => {
    const [{ sheet }, { revisions, current }] = await Promise.all([
      api<ApiResponse<'getSheet'>>('GET', path`/sheets/${id}`),
      api<ApiResponse<'listSheetRevisions'>>('GET', `${path`/sheets/${id}/revisions`}?limit=100`),
    ]);
    return { sheet, revisions, current };
  }, [id, tick]);
  const [pick, setPick] = useState<{ from?: number; to?: number }>({});
  const [error, setError] = useState<string>();
  const [restoring, setRestoring] = useState<number>();
  const sheet = data.data?.sheet;
  // In a personal workspace every version is its owner's own; in a team one, each names its member.
  const workspace = sheet ? (sheet.workspace_id ?? workspaceInUse()) : undefined;
  const member = useMemberNames(workspace && !isPersonalWorkspace(workspace) ? workspace : undefined);
  const versions = sheet ? [sheet.version, ...(data.data?.revisions ?? []).map((r) => r.version)] : [];
  const to = pick.to ?? versions[0];
  const from = pick.from ?? versions[1] ?? versions[0];
  const get = (v: number | undefined): Promise<Revision | undefined> =>
    v === undefined || !sheet
      ? Promise.resolve(undefined)
      : v === sheet.version
        ? Promise.resolve(sheet)
        : api<ApiResponse<'getSheetRevision'>>('GET', path`/sheets/${id}/revisions/${v}`).then((r) => r.revision);
  const pair = useLoad(() => Promise.all([get(from), get(to)]), [from, to, sheet?.version]);

  const restore = async (v: number) => {
    setError(undefined);
    try {
      await api('POST', path`/sheets/${id}/revisions/${v}/restore`, undefined, { 'If-Match': `"${sheet!.version}"` });
      setPick({});
      setTick((t) => t + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const [a, b] = pair.data ?? [];
  const fa = a ? fields(a) : {};
  const fb = b ? fields(b) : {};
  const select = (label: string, value: number | undefined, on: (v: number) => void) => (
    <label>
      {label}
      <select value={value} onChange={(e) => on(Number(e.currentTarget.value))}>
        {versions.map((v) => (
          <option key={v} value={v}>
            {v === sheet?.version ? `${v} (current)` : v}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section class="card">
      <a href={`#/sheets/${encodeURIComponent(id)}`}>← Back to the sheet</a>
      <h1>History{sheet ? `: ${sheet.title}` : ''}</h1>
      <Notice error={data.error ?? pair.error ?? error} />
      {sheet && (
        <>
          <div class="row">
            {select('From version', from, (v) => setPick({ from: v, to }))}
            {select('To version', to, (v) => setPick({ from, to: v }))}
          </div>
          <div class="diffs" data-testid="diff">
            {a && b && Object.keys({ ...fa, ...fb }).map((k) => <Diff key={k} label={k} from={fa[k] ?? ''} to={fb[k] ?? ''} />)}
            {a && b && JSON.stringify(fa) === JSON.stringify(fb) && <p class="muted">No differences.</p>}
          </div>
          <table class="table">
            <thead>
              <tr>
                <th>Version</th>
                <th>Changed</th>
                <th>By</th>
                <th>When</th>
                <th />
              </tr>
            </thead>
            <tbody>
              <tr data-version={sheet.version}>
                <td>{sheet.version} (current)</td>
                <td>{data.data!.current.changes.join(', ')}</td>
                <By actor={data.data!.current.actor} member={member} />
                <td>{when(sheet.updatedAt)}</td>
                <td />
              </tr>
              {data.data!.revisions.map((r) => (
                <tr key={r.version} data-version={r.version}>
                  <td>{r.version}</td>
                  <td>{r.changes.join(', ')}</td>
                  <By actor={r.actor} member={member} />
                  <td>{when(r.updatedAt)}</td>
                  <td>
                    <button type="button" class="small" onClick={() => setRestoring(r.version)}>
                      Restore version {r.version}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {restoring !== undefined && (
        <Confirm
          message={`Make version ${restoring} current again? It becomes a new version; nothing is lost.`}
          action="Restore"
          onCancel={() => setRestoring(undefined)}
          onConfirm={() => {
            const v = restoring;
            setRestoring(undefined);
            void restore(v);
          }}
        />
      )}
    </section>
  );
}
