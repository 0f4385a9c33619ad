import { useEffect, useState } from 'preact/hooks';
import { WORKSPACE_ID, personalWorkspaceId } from '../../src/lib/workspace-ids.ts';

/**
 * The workspace the console works in (issue 33.9, docs/teams.md). Records live in a workspace: lists and
 * creates name it with `workspace_id`, by-id reads find a record in any workspace the person may read.
 * The personal workspace is the default, and then nothing is added, so every request is what it was
 * before teams. The choice is kept per account in localStorage (two people on one browser each keep theirs).
 */
const STORE_PREFIX = 'sheet-workspace.workspace.';

let account: string | undefined;
/** The chosen team workspace; undefined while the personal one is in use. */
let chosen: string | undefined;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

function stored(userId: string): string | undefined {
  try {
    const id = localStorage.getItem(STORE_PREFIX + userId) ?? undefined;
    return id && WORKSPACE_ID.test(id) && id !== personalWorkspaceId(userId) ? id : undefined;
  } catch {
    return undefined; // storage blocked: the personal workspace, as before
  }
}

/** Sign-in (or sign-out with undefined): the account's remembered workspace comes back. */
export function setAccount(userId: string | undefined) {
  if (userId === account) return;
  account = userId;
  chosen = userId ? stored(userId) : undefined;
  notify();
}

/** The workspace in use: a team workspace's id, or the personal one's. */
export const workspaceInUse = (): string | undefined => chosen ?? (account ? personalWorkspaceId(account) : undefined);
export const isPersonalWorkspace = (workspaceId: string | undefined) => !!account && workspaceId === personalWorkspaceId(account);

export function chooseWorkspace(workspaceId: string) {
  if (!account) return;
  const next = workspaceId === personalWorkspaceId(account) ? undefined : workspaceId;
  if (next === chosen) return;
  chosen = next;
  try {
    if (next) localStorage.setItem(STORE_PREFIX + account, next);
    else localStorage.removeItem(STORE_PREFIX + account);
  } catch {
    // not remembered across reloads; still used now
  }
  notify();
}

/** The workspace in use, re-rendering on every switch. */
export function useWorkspace(): string | undefined {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return workspaceInUse();
}

/** The collections whose lists (GET) and creates (POST) are per workspace; everything else is by id or the account's own. */
const PER_WORKSPACE = new Set(['/sheets', '/sessions', '/knowledge', '/knowledge/suggestions', '/todos', '/stats', '/spark', '/webhooks', '/briefing', '/events/stream']);
/**
 * A write about one record (a Spark run on a sheet, a handover of a session) happens in that record's
 * workspace, which the server takes by default; it may be another than the chosen one when the record
 * was opened from a link, and naming the chosen one would be refused.
 */
const namesRecord = (body: object) => 'sheet_id' in body || 'session_id' in body;

/**
 * A /v1 request as it goes out in the workspace in use: `workspace_id` in the query of a list and in the
 * body of a create. The one place the console adds it; in the personal workspace the request is untouched.
 */
export function inWorkspace(method: string, path: string, body: unknown): { path: string; body: unknown } {
  const ws = chosen;
  if (!ws || !PER_WORKSPACE.has(path.split('?')[0])) return { path, body };
  // A page that names a workspace itself (a record's own, not the chosen one) keeps it.
  if (method === 'GET' && /[?&]workspace_id=/.test(path)) return { path, body };
  if (method === 'GET') return { path: `${path}${path.includes('?') ? '&' : '?'}workspace_id=${encodeURIComponent(ws)}`, body };
  if (method === 'POST' && body !== null && typeof body === 'object' && !Array.isArray(body) && !('workspace_id' in body) && !namesRecord(body)) {
    return { path, body: { ...body, workspace_id: ws } };
  }
  return { path, body };
}

/** Workspaces were made, joined, renamed, left or deleted: the switcher lists them again. */
const changeListeners = new Set<() => void>();
export const workspacesChanged = () => changeListeners.forEach((l) => l());
export function onWorkspacesChanged(fn: () => void) {
  changeListeners.add(fn);
  return () => void changeListeners.delete(fn);
}
