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

/** A command that failed in a session, with its first error line (src/modules/sessions/sessions.schemas.ts). */
export interface FailedCommand { command: string; error: string }
export interface Session {
  id: string;
  workspace_id?: string;
  title: string;
  summary: string;
  project: string | null;
  tags: string[];
  files_changed: string[];
  external_id?: string | null;
  /** What the session came to; null when not known. */
  outcome: string | null;
  tasks_done: string[];
  tasks_open: string[];
  errors: FailedCommand[];
  prompts: string[];
  /** claude-code, codex, ...; null when not said. */
  agent: string | null;
  /** Who wrote title and summary: a person or the model ('curated') or a client's automatic capture. */
  source: 'curated' | 'capture';
  /** The newest handover sheet made from the session; null when none. */
  handover_id: string | null;
  /** The optional LLM distillation (DISTILL=1, docs/distillation.md); absent on a server without it. */
  distilled?: { summary: string; decisions: string[]; learnings: string[]; model: string; at: string } | null;
  /** Why the latest distillation did not happen (daily token cap, provider failure). */
  distill_note?: string | null;
  createdAt: string;
  updatedAt?: string | null;
}

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
