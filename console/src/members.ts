import { api, path, useLoad } from './api.ts';
import type { ApiResponse } from './types.ts';

/**
 * Who acted, by name: revisions carry `actor.user_id` and events `data.actor_id` (account ids); the
 * workspace's members name them. An id no member has (someone who has left) shows as itself; without a
 * workspace nobody is named.
 */
export function useMemberNames(workspaceId: string | undefined): (userId: string | null | undefined) => string | undefined {
  const names = useLoad(async () => {
    if (!workspaceId) return { workspaceId, byId: new Map<string, string>() };
    const r = await api<ApiResponse<'listWorkspaceMembers'>>('GET', path`/workspaces/${workspaceId}/members`);
    return { workspaceId, byId: new Map(r.members.map((m) => [m.user_id, m.name])) };
  }, [workspaceId]);
  // Nothing while this workspace's names load (no flash of ids, no names of the one before); the id itself if they cannot be read.
  const loaded = names.data && names.data.workspaceId === workspaceId && !names.loading ? names.data.byId : undefined;
  return (userId) => {
    if (!userId || !workspaceId) return undefined;
    if (loaded) return loaded.get(userId) ?? userId;
    return names.error && !names.loading ? userId : undefined;
  };
}
