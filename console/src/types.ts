/**
 * Shapes the console reads from the API, shared by the shell and its pages (kept apart so no page imports main.tsx or another page).
 * Every API shape comes from the typed client generated from the OpenAPI document (packages/client/src/schema.d.ts), so none can
 * drift from what the server answers: the named schemas as they are, the rest derived from an operation's 200 body (ApiResponse).
 * Two shapes the document does not describe are kept by hand: Me here (GET /console/session is the console's own route, left
 * out of the document with hide: true) and LiveEvent in live.ts (an event of the text/event-stream GET /v1/events/stream).
 */
import type { components, operations } from '../../packages/client/src/schema';

type Schemas = components['schemas'];

/** The JSON body an operation answers with 200, by its operationId: ApiResponse<'listTodos'> is { success: true; todos: Todo[] }. */
export type ApiResponse<Op extends keyof operations> = operations[Op]['responses'] extends { 200: { content: { 'application/json': infer Body } } } ? Body : never;

/** GET /console/session (src/modules/console/console.routes.ts, SessionResponse): not in the OpenAPI document, so kept by hand. */
export interface Me {
  user_id: string;
  name?: string;
  plan: 'free' | 'pro' | 'business';
}

export type Sheet = Schemas['Sheet'];
/** A sheet of GET /v1/sheets: only the fields asked for with fields= (all by default). */
export type SheetListItem = Schemas['SheetListItem'];

export type Workspace = Schemas['Workspace'];
export type WorkspaceRole = Workspace['role'];
export type WorkspaceMember = Schemas['WorkspaceMember'];
/** A new invitation: its token is shown only once. */
export type WorkspaceInvitation = Schemas['WorkspaceInvitation'];
export type PendingWorkspaceInvitation = Schemas['PendingWorkspaceInvitation'];

/** A command that failed in a session, with its first error line. */
export type FailedCommand = Schemas['FailedCommand'];
export type Session = Schemas['Session'];
/** A session of GET /v1/sessions: only the fields asked for with fields= (all by default). */
export type SessionListItem = Schemas['SessionListItem'];

/** GET /v1/briefing (src/modules/briefing/briefing.schemas.ts); the console shows text and capture. */
export type Briefing = ApiResponse<'getBriefing'>;

/** One hit of GET /v1/search (src/modules/search/search.schemas.ts). */
export type SearchResult = Schemas['SearchResult'];
export type SearchKind = SearchResult['type'];

/** A knowledge entry suggested from a session (distillation), waiting for review. */
export type Suggestion = Schemas['KnowledgeSuggestion'];
/** A solution or snippet: whole (GET /v1/knowledge/{id}) or as listed (GET /v1/knowledge, the fields asked for). */
export type KnowledgeEntry = Schemas['Solution'] | Schemas['Snippet'] | Schemas['SolutionListItem'] | Schemas['SnippetListItem'];

export type ApiKey = Schemas['ApiKey'];
export type ConnectedApp = Schemas['ConnectedApp'];

export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

export type Todo = Schemas['Todo'];
export type Stats = Schemas['Stats'];
/** A work date's hours in Stats.daily_hours. */
export type DayHours = Stats['daily_hours'][number];

/** A Spark as GET /v1/spark lists it (without the prompt and dates GET /v1/spark/{id} adds). */
export type SparkListItem = ApiResponse<'listSparks'>['sparks'][number];
/** What POST /v1/spark answers for a run (the same operation also translates and creates, with other answers). */
export type SparkRun = Extract<ApiResponse<'postSpark'>, { spark_id: string }>;

/** Who made a sheet version; null for writes older than revisions. */
export type Actor = Schemas['Actor'];
/** An earlier version as GET /v1/sheets/{id}/revisions lists it. */
export type RevisionSummary = ApiResponse<'listSheetRevisions'>['revisions'][number];
/** The current version's entry in that list (no title: the sheet has it). */
export type CurrentRevision = ApiResponse<'listSheetRevisions'>['current'];
/** One version whole (GET /v1/sheets/{id}/revisions/{version}); the current sheet has the same fields. */
export type Revision = ApiResponse<'getSheetRevision'>['revision'];

/** A read-only link as listed; the new one (Share) carries its url and token, shown only then. */
export type ShareListItem = Schemas['ShareListItem'];
export type Share = Schemas['Share'];
