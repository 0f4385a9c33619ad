/**
 * Shapes the console reads from the API, shared by the shell and its pages (kept apart so no page imports main.tsx or another page).
 * Sheet, Session and FailedCommand come from the typed client generated from the OpenAPI document (packages/client), so they
 * cannot drift from what the server answers; the rest are still kept here by hand.
 */
import type { components } from '../../packages/client/src/schema';

type Schemas = components['schemas'];

export interface Me {
  user_id: string;
  name?: string;
  plan: 'free' | 'pro' | 'business';
}

export type Sheet = Schemas['Sheet'];

export type WorkspaceRole = 'owner' | 'admin' | 'editor' | 'viewer';
export interface Workspace { id: string; name: string; role: WorkspaceRole; personal: boolean; created_at: string }
export interface WorkspaceMember { user_id: string; name: string; role: WorkspaceRole; joined_at: string }

/** A command that failed in a session, with its first error line. */
export type FailedCommand = Schemas['FailedCommand'];
export type Session = Schemas['Session'];

/** GET /v1/briefing (src/modules/briefing/briefing.schemas.ts); the console shows text and capture. */
export interface Briefing {
  project: string;
  workspace_id: string;
  text: string;
  capture: { last_at: string | null };
  omitted: { todos: number; sessions: number; knowledge: number; handover_chars: number };
}

export type SearchKind = 'sheet' | 'session' | 'solution' | 'snippet' | 'todo';
/** One hit of GET /v1/search (src/modules/search/search.schemas.ts). */
export interface SearchResult { type: SearchKind; id: string; title: string; snippet: string; project: string | null; score: number; updatedAt: string; workspace_id: string }

/** A knowledge entry suggested from a session (distillation), waiting for review. */
export interface Suggestion { id: string; session_id: string; title: string; error: string; fix: string; created_at: string; workspace_id: string }
