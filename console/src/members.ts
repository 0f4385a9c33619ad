import { api, path, useLoad } from './api.ts';
import type { WorkspaceMember } from './types.ts';

/**
 * Who acted, by name: revisions carry `actor.user_id` and events `data.actor_id` (account ids); the
 * workspace's members name them. An id no member has (someone who has left) shows as itself.
 */
export function useMemberNames(workspaceId: string | undefined): (userId: string | null | undefined) => string | undefined {
  const names = useLoad(async () => {
    if (!workspaceId) return new Map<string, string>();
    const r = await api<{ members: WorkspaceMember[] }>('GET', path`/workspaces/${workspaceId}/members`);
    return new Map(r.members.map((m) => [m.user_id, m.name]));
  }, [workspaceId]);
  // Nothing while the names load (no flash of ids); the id itself if they cannot be read.
  return (userId) => {
    if (!userId) return undefined;
    if (names.data) return names.data.get(userId) ?? userId;
    return names.error ? userId : undefined;
  };
}
