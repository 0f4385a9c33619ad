import { useEffect } from 'preact/hooks';
import { api, useLoad } from './api.ts';
import type { ApiResponse, Workspace } from './types.ts';
import { onWorkspacesChanged } from './workspace.ts';

/** What a credential restricted to no workspace (`workspace_id: null`) reaches. */
export const EVERY_WORKSPACE = 'Every workspace';

/**
 * The account's workspaces (GET /v1/workspaces) for naming a key's or an app's `workspace_id`; asked for
 * only while `needed`, so a page with nothing to name sends no more requests than before.
 */
export function useWorkspaceList(needed: boolean) {
  const list = useLoad(() => (needed ? api<ApiResponse<'listWorkspaces'>>('GET', '/workspaces').then((r) => r.workspaces) : Promise.resolve(undefined)), [needed]);
  useEffect(() => onWorkspacesChanged(list.reload), [list.reload]);
  return list;
}

/** A workspace's name; its id while the list loads or once the account no longer belongs to it. */
export const workspaceName = (list: Workspace[] | undefined, workspaceId: string | null) => (workspaceId === null ? EVERY_WORKSPACE : (list?.find((w) => w.id === workspaceId)?.name ?? workspaceId));
