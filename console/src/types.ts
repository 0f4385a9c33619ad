/** Shapes the console reads from the API, shared by the shell and its pages (kept apart so no page imports main.tsx or another page). */

export interface Me {
  user_id: string;
  name?: string;
  plan: 'free' | 'pro' | 'business';
}

export interface Sheet { id: string; workspace_id?: string; title: string; content: Record<string, string>; folder: string | null; tags: string[]; createdAt: string; updatedAt: string; trashedAt: string | null; version: number }

export type WorkspaceRole = 'owner' | 'admin' | 'editor' | 'viewer';
export interface Workspace { id: string; name: string; role: WorkspaceRole; personal: boolean; created_at: string }
export interface WorkspaceMember { user_id: string; name: string; role: WorkspaceRole; joined_at: string }
