/**
 * Generated from the server's OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run client:generate` after changing a route's schema.
 * test/api/client-contract.test.ts fails while this file disagrees with the document.
 */

export interface paths {
    "/account/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download every record of the account as a zip: JSON (records/) and Markdown (markdown/); needs a full-access credential not restricted to a workspace
         * @description Sheets with their kept revisions, sessions, handovers, knowledge, todos, work logs, user Sparks and webhooks (without secrets). `npm run cli -- users import <zip> --name <name>` recreates the account on any instance.
         */
        get: operations["exportAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List issued keys (never the full key) */
        get: operations["listApiKeys"];
        put?: never;
        /** Issue a key */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Disable a key; it stops working on the next request */
        delete: operations["disableApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/briefing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project's latest handover and open todos in a workspace as Markdown of at most max_chars characters, for the start of a session
         * @description Needs sessions:read (the handover) or todos:read (the todos); a credential with one of them gets that part and text says which part it may not read. What does not fit is counted in omitted, and the last lines of text name the MCP tool that reads it.
         */
        get: operations["getBriefing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/briefing/claude-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The same briefing as a Claude Code SessionStart hook's output
         * @description What GET /v1/briefing gives as text, wrapped the way a Claude Code SessionStart hook prints it, so a hook without a JSON parser (the plugin runs it from a shell with curl) can pass the answer through. Same query, scopes and errors.
         */
        get: operations["getBriefingForClaudeCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connected-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Apps you connected with OAuth (claude.ai, ChatGPT, ...) */
        get: operations["listConnectedApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connected-apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an app: its access and refresh tokens stop working at once */
        delete: operations["revokeConnectedApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/distill/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your session distillation today: tokens in and out, runs, the daily cap, and whether it is on at all */
        get: operations["getDistillUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream a workspace's events (Server-Sent Events): Bearer key or console session; resume with Last-Event-ID
         * @description A scoped credential receives only the events its scopes read: sheet.* and export.completed need sheets:read, session.* sessions:read, knowledge.saved knowledge:read, spark.executed sparks:run or stats:read. A credential that reads none of them: 403. Open streams are capped per credential (EVENT_STREAM_MAX_PER_CREDENTIAL, default 10) and per client address (EVENT_STREAM_MAX_PER_ADDRESS, default 50): one more is 429 rate_limited with Retry-After.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join a workspace with an invitation token and the invitee's own key; unknown, expired and used tokens are 404 */
        post: operations["acceptWorkspaceInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List or search the solutions and snippets of one workspace (type=solutions|snippets, or both without type), newest first */
        get: operations["listKnowledge"];
        put?: never;
        /** Save a solution (type=solutions) or a snippet (type=snippets), in your personal workspace or the body's workspace_id */
        post: operations["createKnowledge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fetch one solution or snippet; ETag is its version, If-None-Match answers 304 */
        get: operations["getKnowledge"];
        /**
         * Partially update a solution or snippet; fires knowledge.saved when something changed
         * @description Atomic: concurrent updates of different fields all land. With If-Match or expected_version, only from that version (else 412); a change adds 1 to version.
         */
        put: operations["updateKnowledge"];
        post?: never;
        /** Remove a solution or snippet */
        delete: operations["deleteKnowledge"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge/suggestions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Knowledge entries (error -> fix) suggested by session distillation, waiting for review in one workspace */
        get: operations["listKnowledgeSuggestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge/suggestions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Dismiss a suggestion; the same error is not suggested again for that session */
        delete: operations["dismissKnowledgeSuggestion"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge/suggestions/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept a suggestion: it becomes a solution (tag distilled) in its workspace; id is the new solution's */
        post: operations["acceptKnowledgeSuggestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search sheets (handovers included), sessions, solutions, snippets and todos at once, best match first
         * @description Words are ranked (BM25 with the title and error fields weighted), not all required: ask in your own words or paste an error line. Other word forms, identifier parts (jwtVerify, busy_timeout, src/auth/middleware.ts) and Japanese, Chinese and Korean match; newer records rank a little higher, and prefer_project ranks one project first. Each kind needs its read scope (sheets:read, sessions:read, knowledge:read, todos:read): without types, the kinds the credential may read are searched. A record written before the request is found.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the saved sessions of a workspace, newest first; search with q, filter by project */
        get: operations["listSessions"];
        put?: never;
        /** Save a session summary */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fetch one session */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change some fields of a saved session (title, summary, project, tags, files_changed, outcome, tasks, errors, prompts)
         * @description Fires session.updated when a field changed.
         */
        patch: operations["updateSession"];
        trace?: never;
    };
    "/sessions/external/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Save a session under the client's own reference: 201 creates it, 200 replaces the fields of the one saved before
         * @description For clients that save the same session several times (Claude Code passes cc:<session_id>). An omitted project or tags become empty; omitted files_changed and record fields (outcome, tasks, errors, prompts, agent) stay as they are. With source 'capture' the call merges instead: files, failed commands and tasks are added, and a curated title, summary and outcome are kept. Concurrent calls with one external_id converge on one session. Fires session.saved on create, session.updated when a field changed.
         */
        put: operations["upsertSessionByExternalId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/handover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Generate a handover sheet (folder "Handover") from a session for the next session */
        post: operations["createHandover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/shared/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shared sheet as JSON, through its link token (no key); unknown, expired and revoked links are 404 alike */
        get: operations["readSharedSheet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the sheets of a workspace (workspace_id; default your personal one), or search them with q */
        get: operations["listSheets"];
        put?: never;
        /** Create a sheet (version 1; ETag "1") */
        post: operations["createSheet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fetch one sheet (trashed sheets too, with trashedAt set); ETag is its version, If-None-Match answers 304 */
        get: operations["getSheet"];
        /** Update a sheet atomically; content merges by column key. If-Match or expected_version: write only at that version */
        put: operations["updateSheet"];
        post?: never;
        /** Move a sheet to the trash (or remove it for good with permanent=true, revisions included); If-Match: only at that version */
        delete: operations["deleteSheet"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/append": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append HTML to one column in one atomic step (no read needed); default the highest-numbered column */
        post: operations["appendToSheet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/columns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Outline of a sheet: per column its size, lines and headings, to choose what to read */
        get: operations["outlineSheet"];
        put?: never;
        /** Add the lowest unused column key, empty unless html is given */
        post: operations["addSheetColumn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/columns/{col}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one column (404 when the sheet has no such column) */
        delete: operations["removeSheetColumn"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export a sheet as Markdown, HTML, plain text or JSON; the url downloads without a key for 24 hours */
        post: operations["exportSheet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a sheet's exports that can still be downloaded */
        get: operations["listSheetExports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one export: its download url answers 404 from now on */
        delete: operations["revokeSheetExport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/replace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Find plain text in the stored HTML and replace it; without all, exactly one occurrence must exist */
        post: operations["replaceInSheet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bring a trashed sheet back (a new version); If-Match: only at that version */
        post: operations["restoreSheet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Earlier versions of a sheet (not the current one), newest first; the newest 100 are kept */
        get: operations["listSheetRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/revisions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One earlier version of a sheet, with its content */
        get: operations["getSheetRevision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/revisions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make an earlier version current again, as a new version (emits sheet.updated) */
        post: operations["restoreSheetRevision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A sheet's live and expired links (never their tokens) */
        get: operations["listSheetShares"];
        put?: never;
        /** Make a read-only link to a sheet (anyone with the link reads it, no key); the token is returned only here */
        post: operations["createSheetShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sheets/{id}/shares/{share_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a link at once */
        delete: operations["revokeSheetShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/spark": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List public sparks and a workspace's own (default: your personal workspace's) */
        get: operations["listSparks"];
        put?: never;
        /**
         * Run a spark; with action=translate translate text; with action=create create your own spark
         * @description No action: body {spark_id, content, sheet_id?} -> {success, spark_id, spark_name, result}. action=translate: body {content, target_lang, sheet_id?} -> {success, target_lang, result}. Run and translate take workspace_id? (default: the sheet's workspace with sheet_id, else personal): the workspace the run counts in. action=create: body {name, description?, icon?, category?, prompt, workspace_id?} (the text replaces {{content}} in prompt, or is appended after it) -> {success, id, spark}. 503 when the spark needs an AI provider and none is configured; 502 when the provider fails or times out.
         */
        post: operations["postSpark"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/spark/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fetch one spark with its prompt */
        get: operations["getSpark"];
        /** Change your own spark */
        put: operations["updateSpark"];
        post?: never;
        /** Delete your own spark */
        delete: operations["deleteSpark"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Usage statistics of one workspace; "this month" is the current UTC calendar month */
        get: operations["getStats"];
        put?: never;
        /** Record work time (action=worktime) */
        post: operations["recordWorktime"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/todos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tasks, optionally by status and project (newest first) */
        get: operations["listTodos"];
        put?: never;
        /**
         * Bulk-sync tasks: match by id, else by project + trimmed content, else create; all or nothing
         * @description Concurrent syncs of the same elements converge on one task each (matching goes through a unique key). An element with id may carry expected_version.
         */
        post: operations["syncTodos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/todos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one task */
        delete: operations["deleteTodo"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a workspace's webhooks (never their secrets) */
        get: operations["listWebhooks"];
        put?: never;
        /** Register a webhook (Pro plan or higher); the secret is returned only here */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook and its delivery log */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery log, newest first: status and every attempt (time, HTTP status, duration, error, first 1 KiB of the response) */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one delivery again now, with a fresh retry schedule */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a disabled webhook so new events flow again */
        post: operations["enableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed webhook.test event now and return the outcome (not retried) */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's workspaces (personal first) with the caller's role in each */
        get: operations["listWorkspaces"];
        put?: never;
        /** Make a team workspace (Pro plan or higher); the caller is its owner */
        post: operations["createWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One workspace the caller is a member of */
        get: operations["getWorkspace"];
        /** Rename a workspace (admin or owner) */
        put: operations["updateWorkspace"];
        post?: never;
        /** Delete a team workspace and its records (owner only; confirm with its name) */
        delete: operations["deleteWorkspace"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's pending invitations (admin or owner): role, maker, expiry; never their tokens */
        get: operations["listWorkspaceInvitations"];
        put?: never;
        /** Invite someone (admin or owner): a single-use token, valid 7 days unless expires_in_hours says otherwise */
        post: operations["createWorkspaceInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}/invitations/{invitation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation (admin or owner): accepting its token is a 404 from then on */
        delete: operations["revokeWorkspaceInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's members and their roles */
        get: operations["listWorkspaceMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a member's role (admin or owner; making or unmaking an owner: owners only; one owner always remains) */
        put: operations["updateWorkspaceMember"];
        post?: never;
        /** Remove a member (admin or owner) or leave (your own user_id); access ends with the next request */
        delete: operations["removeWorkspaceMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Who made the write: an API key (its name and id), the web console (with the key it was opened with) or an OAuth client, and the account that used it; null for writes older than revisions. Another member's write on a team sheet shows only that member: user_id, and their account name as name (id null), never which of their keys or apps it was. */
        Actor: {
            id: string | null;
            name: string | null;
            /** @enum {string} */
            type: "api_key" | "console" | "oauth_client";
            /** @description The account (usr_...) of the member who wrote, so a team sees who it was; null for writes older than workspaces. */
            user_id: string | null;
        } | null;
        ApiKey: {
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            /** @description After this instant the key answers 401; null: never. */
            expires_at: string | null;
            id: string;
            /** @description Updated at most once a minute. */
            last_used_at: string | null;
            name: string;
            /** @description The first 12 characters of the key. */
            prefix: string;
            /** @description What the key may do; ["*"] is full access. */
            scopes: string[];
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description The one workspace (wsp_...) the key reaches; null: every workspace of the account. */
            workspace_id: string | null;
        };
        ConnectedApp: {
            /** @description The registered client id, or the URL of its client ID metadata document. */
            client_id: string;
            client_name: string;
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            id: string;
            /** @description Updated at most once a minute. */
            last_used_at: string | null;
            /** @description What the person approved for this app. */
            scopes: string[];
            /** @description The one workspace (wsp_...) the app reaches, picked on the consent page; null: every workspace (apps connected before workspaces). */
            workspace_id: string | null;
        };
        CreatedWebhook: {
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            /** @description The account (usr_...) that made it (for a team webhook made before makers were recorded, the creator of its workspace). A team webhook is disabled when its maker leaves the workspace, is removed or loses the admin role. */
            created_by: string | null;
            disabled_at: string | null;
            /** @description Why the webhook was disabled (the last delivery error). */
            disabled_reason: string | null;
            events: string[];
            id: string;
            name: string | null;
            /** @description whsec_...: the HMAC key for X-Service-Signature. Returned only here. */
            secret: string;
            /** @enum {string} */
            status: "enabled" | "disabled";
            url: string;
            /** @description The workspace (wsp_...) whose events this webhook receives */
            workspace_id: string;
        };
        DistilledSession: {
            /** @description When it was written. */
            at: string;
            /** @description Decisions taken in the session, with their reasons. */
            decisions: string[];
            /** @description What is worth remembering about the code base or tools. */
            learnings: string[];
            /** @description The model that wrote it. */
            model: string;
            /** @description A condensed summary written by the AI provider. */
            summary: string;
        };
        Error: {
            /** @description Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited. */
            code: string;
            /** @description What went wrong, naming the field or cause. */
            error: string;
            /** @description With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer). */
            required_role?: string;
            /** @description With insufficient_scope (403): the scope the credential lacks. */
            required_scope?: string;
            /** @constant */
            success: false;
        };
        FailedCommand: {
            /** @description The command as it was run (redacted by the client). */
            command: string;
            /** @description Its first error line. */
            error: string;
        };
        FailedCommandInput: {
            /** @description The command as it was run (redacted by the client). */
            command: string;
            /** @description Its first error line. */
            error: string;
        };
        KnowledgeSuggestion: {
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            /** @description The error as the session met it. */
            error: string;
            /** @description What fixed it; becomes the solution's content when accepted. */
            fix: string;
            id: string;
            /** @description The session whose distillation suggested it. */
            session_id: string;
            title: string;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        PendingWorkspaceInvitation: {
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            /** @description ISO 8601 UTC timestamp */
            expires_at: string;
            /** @description inv_... */
            id: string;
            /** @description The member who made it; it dies when they leave, are removed or may no longer grant its role. */
            invited_by: {
                name: string | null;
                user_id: string;
            };
            /** @enum {string} */
            role: "admin" | "editor" | "viewer";
        };
        SearchResult: {
            id: string;
            project: string | null;
            /** @description Relevance (higher is better); comparable within one search only. */
            score: number;
            /** @description Where the words matched, as plain text of at most 300 characters. */
            snippet: string;
            title: string;
            /** @enum {string} */
            type: "sheet" | "session" | "solution" | "snippet" | "todo";
            /** @description ISO 8601 UTC timestamp */
            updatedAt: string;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        Session: {
            /** @description The assistant that ran the session (claude-code, codex, gemini-cli, ...); null when not said. */
            agent: string | null;
            /** @description ISO 8601 UTC timestamp */
            createdAt: string;
            /** @description Why the latest distillation did not happen (daily token cap, provider failure); null when nothing is to be said. */
            distill_note: string | null;
            /** @description The optional LLM distillation (DISTILL=1, docs/distillation.md); null when the session was not distilled. */
            distilled: components["schemas"]["DistilledSession"] | null;
            /** @description Commands that failed in this session, each with its first error line. */
            errors: components["schemas"]["FailedCommand"][];
            /** @description The client's own reference (PUT /sessions/external/{external_id}); null when saved without one. */
            external_id: string | null;
            files_changed: string[];
            /** @description The newest handover sheet made from this session; null when none. */
            handover_id: string | null;
            id: string;
            /** @description What the session came to (for a captured session, its closing message); null when not known. */
            outcome: string | null;
            /** @description null when the session was saved without a project. */
            project: string | null;
            /** @description The session's prompts, shortened. */
            prompts: string[];
            /**
             * @description Who wrote title and summary: 'curated' (a person or the model) or 'capture' (a client's automatic capture, which never replaces curated text).
             * @enum {string}
             */
            source: "curated" | "capture";
            summary: string;
            tags: string[];
            /** @description Tasks completed in this session. */
            tasks_done: string[];
            /** @description Tasks this session left open. */
            tasks_open: string[];
            title: string;
            /** @description When the session was last changed; null when never changed since it was saved. */
            updatedAt: string | null;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        /** @description A session with the fields chosen by fields= (all by default), plus snippet when q is given. */
        SessionListItem: {
            /** @description The assistant that ran the session (claude-code, codex, gemini-cli, ...); null when not said. */
            agent?: string | null;
            /** @description ISO 8601 UTC timestamp */
            createdAt?: string;
            /** @description Why the latest distillation did not happen (daily token cap, provider failure); null when nothing is to be said. */
            distill_note?: string | null;
            /** @description The optional LLM distillation (DISTILL=1, docs/distillation.md); null when the session was not distilled. */
            distilled?: components["schemas"]["DistilledSession"] | null;
            /** @description Commands that failed in this session, each with its first error line. */
            errors?: components["schemas"]["FailedCommand"][];
            /** @description The client's own reference (PUT /sessions/external/{external_id}); null when saved without one. */
            external_id?: string | null;
            files_changed?: string[];
            /** @description The newest handover sheet made from this session; null when none. */
            handover_id?: string | null;
            id: string;
            /** @description What the session came to (for a captured session, its closing message); null when not known. */
            outcome?: string | null;
            /** @description null when the session was saved without a project. */
            project?: string | null;
            /** @description The session's prompts, shortened. */
            prompts?: string[];
            /** @description Only with q: up to 240 characters of plain text around the best match, matched words wrapped in <mark>, everything else HTML-escaped. */
            snippet?: string;
            /**
             * @description Who wrote title and summary: 'curated' (a person or the model) or 'capture' (a client's automatic capture, which never replaces curated text).
             * @enum {string}
             */
            source?: "curated" | "capture";
            summary?: string;
            tags?: string[];
            /** @description Tasks completed in this session. */
            tasks_done?: string[];
            /** @description Tasks this session left open. */
            tasks_open?: string[];
            title?: string;
            /** @description When the session was last changed; null when never changed since it was saved. */
            updatedAt?: string | null;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id?: string;
        };
        Share: {
            /** @description null: the link works until it is revoked. */
            expires_at: string | null;
            /** @description shr_... */
            id: string;
            /** @description Shown only here; stored hashed. GET /v1/shared/{token} gives the sheet as JSON. */
            token: string;
            /** @description The read-only page: GET /s/{token}, no key needed. */
            url: string;
        };
        SharedSheet: {
            /** @description Columns (col1, col2, ...) as sanitized HTML. */
            content: {
                [key: string]: string;
            };
            folder: string | null;
            tags: string[];
            title: string;
            /** @description ISO 8601 UTC timestamp */
            updatedAt: string;
            version: number;
        };
        ShareListItem: {
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            created_by: string;
            expires_at: string | null;
            id: string;
        };
        Sheet: {
            /** @description Column key (col1..col99) to HTML string. */
            content: {
                [key: string]: string;
            };
            /** @description ISO 8601 UTC timestamp */
            createdAt: string;
            folder: string | null;
            id: string;
            tags: string[];
            title: string;
            /** @description Set while the sheet is in the trash; trashed sheets are purged after 30 days. */
            trashedAt: string | null;
            /** @description ISO 8601 UTC timestamp */
            updatedAt: string;
            /** @description 1 at creation, +1 on every change (trash and restore too); the ETag is this number in quotes. */
            version: number;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        /** @description A sheet with the fields chosen by fields= (all by default), plus snippet when q is given. */
        SheetListItem: {
            /** @description Column key (col1..col99) to HTML string. */
            content?: {
                [key: string]: string;
            };
            /** @description ISO 8601 UTC timestamp */
            createdAt?: string;
            folder?: string | null;
            id: string;
            /** @description Only with q: up to 240 characters of plain text around the best match, matched words wrapped in <mark>, everything else HTML-escaped. */
            snippet?: string;
            tags?: string[];
            title?: string;
            /** @description Set while the sheet is in the trash; trashed sheets are purged after 30 days. */
            trashedAt?: string | null;
            /** @description ISO 8601 UTC timestamp */
            updatedAt?: string;
            /** @description 1 at creation, +1 on every change (trash and restore too); the ETag is this number in quotes. */
            version?: number;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id?: string;
        };
        /** @description Present when columns, format, max_chars, offset_chars or lines was given: where each returned column window sits. */
        SheetWindow: {
            columns: {
                [key: string]: {
                    /** @description Where this window starts. */
                    from: number;
                    /** @description offset_chars of the next window; null when the column was read to its end. */
                    next_offset: number | null;
                    /** @description Where it ends (exclusive). */
                    to: number;
                    /** @description Length of the whole column in the chosen format, in code points. */
                    total_chars: number;
                    total_lines: number;
                };
            };
            /** @enum {string} */
            format: "html" | "markdown" | "text";
        };
        Snippet: {
            /** @description The code. */
            content: string;
            /** @description ISO 8601 UTC timestamp */
            createdAt: string;
            description: string | null;
            id: string;
            language: string | null;
            tags: string[];
            title: string;
            /** @description 1 at creation, +1 on every change. */
            version: number;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        /** @description With the fields chosen by fields= (all by default), plus snippet when q is given. */
        SnippetListItem: {
            /** @description The code. */
            content?: string;
            /** @description ISO 8601 UTC timestamp */
            createdAt?: string;
            description?: string | null;
            id: string;
            language?: string | null;
            /** @description Only with q: up to 240 characters of plain text around the best match, matched words wrapped in <mark>, everything else HTML-escaped. */
            snippet?: string;
            tags?: string[];
            title?: string;
            /** @description 1 at creation, +1 on every change. */
            version?: number;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id?: string;
        };
        Solution: {
            content: string;
            /** @description ISO 8601 UTC timestamp */
            createdAt: string;
            error: string | null;
            id: string;
            language: string | null;
            tags: string[];
            title: string;
            /** @description 1 at creation, +1 on every change. */
            version: number;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        /** @description With the fields chosen by fields= (all by default), plus snippet when q is given. */
        SolutionListItem: {
            content?: string;
            /** @description ISO 8601 UTC timestamp */
            createdAt?: string;
            error?: string | null;
            id: string;
            language?: string | null;
            /** @description Only with q: up to 240 characters of plain text around the best match, matched words wrapped in <mark>, everything else HTML-escaped. */
            snippet?: string;
            tags?: string[];
            title?: string;
            /** @description 1 at creation, +1 on every change. */
            version?: number;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id?: string;
        };
        Spark: {
            /** @enum {string} */
            category: "writing" | "summarize" | "code" | "productivity" | "translate" | "custom";
            created_at: string | null;
            description: string;
            icon: string;
            id: string;
            name: string;
            /** @description User sparks: the template. Public model sparks: the system prompt. Null for sparks that need no model. */
            prompt: string | null;
            /** @description false for sparks that run without an AI provider. */
            requires_ai: boolean;
            /** @enum {string} */
            type: "public" | "user";
            updated_at: string | null;
            /** @description The workspace (wsp_...) a user spark is in; null for public sparks. */
            workspace_id: string | null;
        };
        Stats: {
            /** @description Hours of all work logs per work date over the last 56 UTC days (today included), oldest first; days without work are omitted. */
            daily_hours: {
                /** @description Work date, YYYY-MM-DD. */
                date: string;
                hours: number;
            }[];
            /** @description The 10 newest work logs by date, then by time recorded. */
            recent_work_logs: components["schemas"]["WorkLog"][];
            sessions: {
                this_month: number;
                total: number;
            };
            sheets: {
                /** @description Sheets not in the trash created in the current UTC month. */
                created_this_month: number;
                /** @description Sheets not in the trash. */
                total: number;
            };
            sparks: {
                executed_this_month: number;
                executed_total: number;
            };
            /** @description The workspace (wsp_...) these figures count: only its records are counted */
            workspace_id: string;
            worktime: {
                /** @description Hours of logs whose date falls in the current UTC month. */
                this_month_hours: number;
                total_hours: number;
            };
        };
        Todo: {
            /** @description Present-tense form shown while the task is in progress (coding assistants). */
            activeForm: string | null;
            content: string;
            /** @description Epoch time in milliseconds. */
            createdAt: number;
            id: string;
            /** @enum {string} */
            priority: "low" | "medium" | "high";
            /** @description Project name; "" means the task belongs to no project. */
            project: string;
            /** @enum {string} */
            status: "pending" | "in_progress" | "completed";
            /** @description 1 at creation, +1 on every change. */
            version: number;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        /** @description Precondition failed (code version_conflict): the record is not at the version If-Match or expected_version named. Nothing changed. */
        VersionConflict: {
            /** @description Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited. */
            code: string;
            /** @description The version the record is at now; read it again, then retry with this version. */
            current_version: number;
            /** @description What went wrong, naming the field or cause. */
            error: string;
            /** @description With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer). */
            required_role?: string;
            /** @description With insufficient_scope (403): the scope the credential lacks. */
            required_scope?: string;
            /** @constant */
            success: false;
        };
        Webhook: {
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            /** @description The account (usr_...) that made it (for a team webhook made before makers were recorded, the creator of its workspace). A team webhook is disabled when its maker leaves the workspace, is removed or loses the admin role. */
            created_by: string | null;
            disabled_at: string | null;
            /** @description Why the webhook was disabled (the last delivery error). */
            disabled_reason: string | null;
            events: string[];
            id: string;
            name: string | null;
            /** @enum {string} */
            status: "enabled" | "disabled";
            url: string;
            /** @description The workspace (wsp_...) whose events this webhook receives */
            workspace_id: string;
        };
        WebhookDelivery: {
            attempt_count: number;
            /** @description Oldest first. */
            attempts: {
                /** @description ISO 8601 UTC timestamp */
                attempted_at: string;
                duration_ms: number;
                error: string | null;
                /** @description The first 1 KiB of the response body. */
                response_body: string | null;
                /** @description HTTP status of the response; null when none arrived. */
                status_code: number | null;
            }[];
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            event: string;
            event_id: string;
            /** @description Also sent as X-Service-Delivery; the same on every retry. */
            id: string;
            next_attempt_at: string | null;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed" | "stopped";
            stopped_reason: string | null;
            webhook_id: string;
        };
        WorkLog: {
            /** @description ISO 8601 UTC timestamp */
            createdAt: string;
            /** @description Work date, YYYY-MM-DD. */
            date: string;
            description: string | null;
            hours: number;
            id: string;
            project: string | null;
            /** @description The workspace (wsp_...) this record is in */
            workspace_id: string;
        };
        Workspace: {
            /** @description ISO 8601 UTC timestamp */
            created_at: string;
            /** @description wsp_... */
            id: string;
            name: string;
            /** @description True for the caller's personal workspace (records made without workspace_id go there). */
            personal: boolean;
            /**
             * @description The caller's role in this workspace.
             * @enum {string}
             */
            role: "owner" | "admin" | "editor" | "viewer";
        };
        WorkspaceInvitation: {
            /** @description ISO 8601 UTC timestamp */
            expires_at: string;
            /** @description inv_... */
            id: string;
            /** @enum {string} */
            role: "admin" | "editor" | "viewer";
            /** @description Shown only here; the invitee accepts with POST /v1/invitations/{token}/accept and their own key. */
            token: string;
            /** @description The console page that accepts it (the invitee signs in with their own key, then clicks Accept). */
            url: string;
        };
        WorkspaceMember: {
            /** @description ISO 8601 UTC timestamp */
            joined_at: string;
            name: string;
            /** @enum {string} */
            role: "owner" | "admin" | "editor" | "viewer";
            user_id: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    exportAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description application/zip: the export file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_keys: components["schemas"]["ApiKey"][];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description When the key stops working (must be in the future); absent or null: never. A credential that itself expires (an expiring key, an OAuth access token) cannot create a key that outlives it: absent means its own expiry, and a later time or null is a 400. */
                    expires_at?: string | null;
                    name: string;
                    /** @description Default ["*"] (full access). A key never gets a scope the issuing credential lacks (403 insufficient_scope). */
                    scopes?: ("*" | "sheets:read" | "sheets:write" | "sessions:read" | "sessions:write" | "knowledge:read" | "knowledge:write" | "todos:read" | "todos:write" | "sparks:run" | "stats:read" | "stats:write" | "sparks:manage" | "webhooks:manage" | "keys:manage" | "exports:create" | "workspaces:read" | "workspaces:manage")[];
                    /** @description Restrict the key to one workspace (wsp_...) you are a member of: it sees and writes only there (lists default to it, other workspaces answer 403), and its scopes and your role still apply. Absent: the workspace the creating credential is restricted to, else every workspace (null). A restricted credential cannot make a key for another workspace or for every workspace (403). */
                    workspace_id?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The full key. Shown only in this response; store it now. */
                        api_key: string;
                        expires_at: string | null;
                        id: string;
                        name: string;
                        scopes: string[];
                        /** @enum {boolean} */
                        success: true;
                        /** @description The one workspace (wsp_...) the key reaches; null: every workspace of the account. */
                        workspace_id: string | null;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disableApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "disabled";
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBriefing: {
        parameters: {
            query: {
                /** @description The most characters text may have: 500 to 20000, default 6000. */
                max_chars?: string;
                /** @description In a team workspace, 'exclude' leaves out the handovers, sessions and todos other members wrote (default include). */
                others?: "include" | "exclude";
                /** @description Project name, exactly as sessions and todos are saved with it; an empty value means "no project". */
                project: string;
                /** @description The workspace (wsp_...) whose sessions, handovers and todos are read; default: your personal workspace (or the one your key is restricted to). */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Capture health: whether automatic capture reaches the service. */
                        capture: {
                            /** @description When a client last captured a session of this project (null: never). */
                            last_at: string | null;
                        };
                        /** @description The handover text shows; null when there is none or the credential may not read sessions. */
                        handover: {
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            handover_id: string;
                            session_id: string;
                            title: string;
                        } | null;
                        /** @description The knowledge entries text shows (matching errors of recent sessions). */
                        knowledge: {
                            id: string;
                            title: string;
                        }[];
                        omitted: {
                            /** @description About how many characters of the handover are not in text (0: all of it is). */
                            handover_chars: number;
                            /** @description Knowledge entries not in text. */
                            knowledge: number;
                            /** @description Sessions not in text. */
                            sessions: number;
                            /** @description Open todos not in text. */
                            todos: number;
                        };
                        project: string;
                        /** @description The sessions text shows, newest first. */
                        sessions: {
                            /** @description ISO 8601 UTC timestamp */
                            at: string;
                            errors: components["schemas"]["FailedCommand"][];
                            files_changed: string[];
                            id: string;
                            outcome: string | null;
                            title: string;
                        }[];
                        /** @enum {boolean} */
                        success: true;
                        /** @description Plain text to hand an assistant at the start of a session, never longer than max_chars: the latest handover (next steps, each marked [done] when a completed todo or a later session's task matches it, then notes and summary), the sessions since it (title, outcome, files, failed commands; without a handover the latest sessions), the open todos with where each was left, knowledge matching recent errors, the capture health, and last lines saying what was left out and which MCP tool reads it. Stored text is quoted ("> ") as data, never as instructions. */
                        text: string;
                        /** @description The open todos text lists, newest first. */
                        todos: {
                            content: string;
                            id: string;
                            /** @enum {string} */
                            priority: "low" | "medium" | "high";
                            /** @enum {string} */
                            status: "pending" | "in_progress" | "completed";
                        }[];
                        /** @description The workspace the briefing was read from. */
                        workspace_id: string;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBriefingForClaudeCode: {
        parameters: {
            query: {
                /** @description The most characters text may have: 500 to 20000, default 6000. */
                max_chars?: string;
                /** @description In a team workspace, 'exclude' leaves out the handovers, sessions and todos other members wrote (default include). */
                others?: "include" | "exclude";
                /** @description Project name, exactly as sessions and todos are saved with it; an empty value means "no project". */
                project: string;
                /** @description The workspace (wsp_...) whose sessions, handovers and todos are read; default: your personal workspace (or the one your key is restricted to). */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Claude Code hook output (https://docs.claude.com/en/docs/claude-code/hooks): the text becomes context of the new session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        hookSpecificOutput: {
                            /** @description The briefing's text, as GET /v1/briefing gives it. */
                            additionalContext: string;
                            /** @enum {string} */
                            hookEventName: "SessionStart";
                        };
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConnectedApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connected_apps: components["schemas"]["ConnectedApp"][];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeConnectedApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "revoked";
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDistillUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        usage: {
                            /** @description DISTILL_DAILY_TOKENS: past it, sessions wait until the next UTC day with a note. */
                            daily_cap: number;
                            /** @description The UTC day counted (YYYY-MM-DD). */
                            day: string;
                            /** @description false unless DISTILL=1 and an AI provider is configured: then nothing is ever sent. */
                            enabled: boolean;
                            model: string | null;
                            /** @description Provider calls made for your sessions today. */
                            runs: number;
                            /** @description tokens_in + tokens_out: what the daily cap counts. */
                            tokens: number;
                            tokens_in: number;
                            tokens_out: number;
                        };
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description Comma-separated event names to receive (default: all the credential's scopes may read). Known: sheet.created, sheet.updated, sheet.deleted, spark.executed, session.saved, session.handover, session.updated, knowledge.saved, export.completed, todos.synced, todo.deleted. A name the scopes do not cover is a 403 insufficient_scope. */
                events?: string;
                /** @description The workspace whose events to stream (needs a member's records.read; default: your personal workspace, or the one your key is restricted to) */
                workspace_id?: string;
            };
            header?: {
                /** @description Resume strictly after this event id (the SSE `id:` of the last event received), at most 24 hours back. */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream. Each event: `id: evt_...`, `event: <name>`, `data: {"id","event","timestamp","data"}` (the webhook body plus the id). A comment line (`: heartbeat`) every 15 seconds keeps proxies from closing an idle stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptWorkspaceInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        workspace: components["schemas"]["Workspace"];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKnowledge: {
        parameters: {
            query?: {
                /** @description Comma-separated fields to return for each item (id is always included): id, title, error, content, language, tags, createdAt, version, workspace_id, description. */
                fields?: string;
                /** @description Per list. Default 20; values above 100 are clamped to 100. */
                limit?: string;
                /** @description Entries to skip, per list (paging; total says how many match). */
                offset?: string;
                /** @description Words searched in title, error, content and description, case-insensitively (works for CJK). Paste a whole error message: entries containing at least two of its words (all, with fewer) are listed, those matching the most words first; punctuation, numbers and words like "is" or "the" are ignored. */
                q?: string;
                /** @description Only entries carrying exactly this tag (case-sensitive). */
                tag?: string;
                /** @description Omitted: both lists are returned. */
                type?: "solutions" | "snippets";
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Present unless type=solutions. */
                        snippets?: components["schemas"]["SnippetListItem"][];
                        /** @description Present unless type=snippets. */
                        solutions?: components["schemas"]["SolutionListItem"][];
                        /** @enum {boolean} */
                        success: true;
                        /** @description How many entries match, over the lists returned (limit and offset apply to each list). */
                        total: number;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createKnowledge: {
        parameters: {
            query: {
                /** @description Which kind to save: solutions or snippets. */
                type: "solutions" | "snippets";
            };
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                    /** @description Snippets only: what the snippet does. */
                    description?: string;
                    /** @description Solutions only: the error message text. */
                    error?: string;
                    language?: string;
                    tags?: string[];
                    title: string;
                    /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The entry's version in quotes, e.g. "3": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        snippet?: components["schemas"]["Snippet"];
                        solution?: components["schemas"]["Solution"];
                        /** @enum {boolean} */
                        success: true;
                        /** @enum {string} */
                        type: "solution" | "snippet";
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKnowledge: {
        parameters: {
            query?: never;
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. When it names the current version: 304 with no body. */
                "if-none-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The entry's version in quotes, e.g. "3": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        snippet?: components["schemas"]["Snippet"];
                        solution?: components["schemas"]["Solution"];
                        /** @enum {boolean} */
                        success: true;
                        /** @enum {string} */
                        type: "solution" | "snippet";
                    };
                };
            };
            /** @description Not modified: If-None-Match names the current version (the ETag). */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateKnowledge: {
        parameters: {
            query?: never;
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content?: string;
                    /** @description Snippets only; null clears it. */
                    description?: string | null;
                    /** @description Solutions only; null clears it. */
                    error?: string | null;
                    /** @description Write only if the record is at this version (same as If-Match); otherwise 412 version_conflict */
                    expected_version?: number;
                    language?: string | null;
                    tags?: string[];
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The entry's version in quotes, e.g. "3": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        snippet?: components["schemas"]["Snippet"];
                        solution?: components["schemas"]["Solution"];
                        /** @enum {boolean} */
                        success: true;
                        /** @enum {string} */
                        type: "solution" | "snippet";
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description version_conflict: the record is not at the version If-Match or expected_version names; current_version tells which it is. Nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited. */
                        code: string;
                        /** @description The version the record is at now. */
                        current_version: number;
                        /** @description What went wrong, naming the field or cause. */
                        error: string;
                        /** @description With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer). */
                        required_role?: string;
                        /** @description With insufficient_scope (403): the scope the credential lacks. */
                        required_scope?: string;
                        /** @enum {boolean} */
                        success: false;
                    };
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteKnowledge: {
        parameters: {
            query?: never;
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                        /** @enum {string} */
                        type: "solution" | "snippet";
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description version_conflict: the record is not at the version If-Match or expected_version names; current_version tells which it is. Nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited. */
                        code: string;
                        /** @description The version the record is at now. */
                        current_version: number;
                        /** @description What went wrong, naming the field or cause. */
                        error: string;
                        /** @description With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer). */
                        required_role?: string;
                        /** @description With insufficient_scope (403): the scope the credential lacks. */
                        required_scope?: string;
                        /** @enum {boolean} */
                        success: false;
                    };
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKnowledgeSuggestions: {
        parameters: {
            query?: {
                /** @description Default 50; values above 200 are clamped to 200. */
                limit?: string;
                offset?: string;
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @description Pending suggestions of the workspace, newest first. */
                        suggestions: components["schemas"]["KnowledgeSuggestion"][];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    dismissKnowledgeSuggestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        dismissed: true;
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptKnowledgeSuggestion: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The new solution (knowledge entry). */
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                        suggestion_id: string;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state. Also idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    search: {
        parameters: {
            query: {
                /** @description Default 10, at most 50. */
                limit?: string;
                /** @description Results to skip (paging), at most 950. */
                offset?: string;
                /** @description Rank records of this project first, without leaving the others out. */
                prefer_project?: string;
                /** @description Only records of this project (sessions, todos and handover sheets name one). */
                project?: string;
                /** @description What to look for, in your own words, or a pasted error line, file path or identifier. Words are ranked, not all required; other word forms (migrate, migrated), identifier parts (jwtVerify, busy_timeout) and Japanese, Chinese and Korean match. */
                q: string;
                /** @description Which kinds to search, comma-separated: sheet, session, solution, snippet, todo (handover sheets are sheets). Default: every kind your credential may read. */
                types?: string | string[];
                /** @description Search only this workspace. Default: every workspace you can read (only its own for a key restricted to one). */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: components["schemas"]["SearchResult"][];
                        /** @enum {boolean} */
                        success: true;
                        /** @description How many records match at least one word, counted up to 1000 (the most a search pages through). */
                        total: number;
                        /** @description true when more than 1000 records match (total then says 1000). */
                        total_capped: boolean;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: {
                /** @description Comma-separated fields to return for each item (id is always included): id, title, summary, project, tags, files_changed, external_id, outcome, tasks_done, tasks_open, errors, prompts, agent, source, handover_id, distilled, distill_note, workspace_id, createdAt, updatedAt. */
                fields?: string;
                /** @description Default 20; values above 100 are clamped to 100. */
                limit?: string;
                offset?: string;
                /** @description Only sessions of exactly this project; an empty value selects sessions without a project. */
                project?: string;
                /** @description Words matched (all of them) in title, summary, project and tags, case-insensitively; works for CJK. */
                q?: string;
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessions: components["schemas"]["SessionListItem"][];
                        /** @enum {boolean} */
                        success: true;
                        total: number;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    agent?: string;
                    errors?: components["schemas"]["FailedCommandInput"][];
                    files_changed?: string[];
                    outcome?: string;
                    project?: string;
                    prompts?: string[];
                    summary: string;
                    tags?: string[];
                    tasks_done?: string[];
                    tasks_open?: string[];
                    title: string;
                    /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        session: components["schemas"]["Session"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        session: components["schemas"]["Session"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Only the fields given change; at least one is needed. */
        requestBody: {
            content: {
                "application/json": {
                    errors?: components["schemas"]["FailedCommandInput"][];
                    files_changed?: string[];
                    outcome?: string;
                    /** @description "" or null: no project. */
                    project?: string | null;
                    prompts?: string[];
                    summary?: string;
                    tags?: string[];
                    tasks_done?: string[];
                    tasks_open?: string[];
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        session: components["schemas"]["Session"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    upsertSessionByExternalId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client's own reference for the session, unique per workspace, e.g. cc:<Claude Code session_id>. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    agent?: string;
                    errors?: components["schemas"]["FailedCommandInput"][];
                    files_changed?: string[];
                    outcome?: string;
                    project?: string;
                    prompts?: string[];
                    /**
                     * @description 'capture' for a client's automatic capture: it merges into the session (adds files, failed commands and tasks) and never replaces a curated title, summary or outcome. Default 'curated': the fields given replace the session's.
                     * @enum {string}
                     */
                    source?: "curated" | "capture";
                    summary: string;
                    tags?: string[];
                    tasks_done?: string[];
                    tasks_open?: string[];
                    title: string;
                    /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description true (status 201) when this call created the session, false (200) when it updated the existing one. */
                        created: boolean;
                        id: string;
                        session: components["schemas"]["Session"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description true (status 201) when this call created the session, false (200) when it updated the existing one. */
                        created: boolean;
                        id: string;
                        session: components["schemas"]["Session"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createHandover: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    next_steps?: string[];
                    notes?: string;
                    session_id: string;
                    /** @description The session's workspace (wsp_...): the handover sheet goes there; any other is 403 forbidden. Default: the session's. */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Id of the generated handover sheet. */
                        handover_id: string;
                        session_id: string;
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                        /** @description The workspace (wsp_...) this record is in */
                        workspace_id: string;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    readSharedSheet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheet: components["schemas"]["SharedSheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSheets: {
        parameters: {
            query?: {
                /** @description Comma-separated fields to return for each item (id is always included): id, title, content, folder, tags, createdAt, updatedAt, trashedAt, version, workspace_id. */
                fields?: string;
                /** @description Default 50; values above 100 are clamped to 100. */
                limit?: string;
                offset?: string;
                /** @description Words matched (all of them) in the title and the text of the HTML, case-insensitively; works for CJK. */
                q?: string;
                /** @description With q: relevance (default; best matches first) or updated (last changed first). Without q the list is newest first. A query matching most of your sheets (more than half of them, and more than SEARCH_RANK_MAX_MATCHES, 10,000 by default) comes newest first under relevance, with its exact total. */
                sort?: "relevance" | "updated";
                /** @description true lists the trash instead of active sheets. */
                trashed?: "0" | "1" | "true" | "false";
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheets: components["schemas"]["SheetListItem"][];
                        /** @enum {boolean} */
                        success: true;
                        total: number;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSheet: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content?: {
                        [key: string]: string;
                    };
                    folder?: string;
                    tags?: string[];
                    title: string;
                    /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                        title: string;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSheet: {
        parameters: {
            query?: {
                /** @description Comma-separated column keys (col1,col3): only those columns in content. */
                columns?: string;
                /** @description html (default: the HTML as stored), markdown (sanitized, GFM tables) or text (the visible text). */
                format?: "html" | "markdown" | "text";
                /** @description Per column: lines A-B (1-based, inclusive) of the markdown or text form; not with format=html. */
                lines?: string;
                /** @description Per column: at most this many characters (Unicode code points of the chosen format). */
                max_chars?: string;
                /** @description Per column: where the window starts (a previous window's next_offset). Default 0. */
                offset_chars?: string;
            };
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. When it names the current version: 304 with no body. */
                "if-none-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                        window?: components["schemas"]["SheetWindow"];
                    };
                };
            };
            /** @description Not modified: If-None-Match names the current version (the ETag). */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSheet: {
        parameters: {
            query?: never;
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Merged by column key: sent keys replace, null removes, others stay. */
                    content?: {
                        [key: string]: string | null;
                    };
                    /** @description Write only if the record is at this version (same as If-Match); otherwise 412 version_conflict */
                    expected_version?: number;
                    folder?: string | null;
                    tags?: string[];
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSheet: {
        parameters: {
            query?: {
                /** @description true removes the sheet for good instead of moving it to the trash. */
                permanent?: "0" | "1" | "true" | "false";
            };
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description true when the sheet was removed for good (permanent=true). */
                        deleted: boolean;
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                        trashedAt: string | null;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    appendToSheet: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Column to append to; default the highest-numbered column (col1 on an empty sheet). A column that does not exist is created. */
                    column?: string;
                    /** @description Write only if the record is at this version (same as If-Match); otherwise 412 version_conflict */
                    expected_version?: number;
                    html: string;
                    /** @description Put between the old and the new text when the column is not empty; default none. */
                    separator?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    outlineSheet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        columns: {
                            /** @description Length of the HTML as stored, in code points. */
                            chars: number;
                            headings: {
                                level: number;
                                /** @description Line of the markdown form. */
                                line: number;
                                text: string;
                            }[];
                            key: string;
                            /** @description Lines of the markdown form (what lines=A-B reads). */
                            lines: number;
                            /** @description Length of the visible text, in code points. */
                            text_chars: number;
                        }[];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addSheetColumn: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Write only if the record is at this version (same as If-Match); otherwise 412 version_conflict */
                    expected_version?: number;
                    /** @description Initial HTML of the new column; default empty. */
                    html?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        column: string;
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state. Also idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeSheetColumn: {
        parameters: {
            query?: never;
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                col: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportSheet: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    format: "markdown" | "html" | "txt" | "json";
                    /** @description The workspace (wsp_...) the sheet is expected in; optional, the sheet's own workspace is used */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description ISO 8601 UTC timestamp */
                        expires_at: string;
                        export_id: string;
                        /** @enum {string} */
                        format: "markdown" | "html" | "txt" | "json";
                        /** @enum {boolean} */
                        success: true;
                        /** @description Absolute address of the file. Downloads without an API key until expires_at (24 hours). */
                        url: string;
                        /** @description The workspace (wsp_...) the export is in: its sheet's */
                        workspace_id: string;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSheetExports: {
        parameters: {
            query?: {
                /** @description The workspace (wsp_...) the sheet is expected in; optional, the sheet's own workspace is used */
                workspace_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Exports of the sheet that can still be downloaded, newest first. Download urls are shown only once, at creation. */
                        exports: {
                            /** @description ISO 8601 UTC timestamp */
                            created_at: string;
                            /** @description ISO 8601 UTC timestamp */
                            expires_at: string;
                            export_id: string;
                            filename: string;
                            /** @enum {string} */
                            format: "markdown" | "html" | "txt" | "json";
                            /** @description The workspace (wsp_...) this record is in */
                            workspace_id: string;
                        }[];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeSheetExport: {
        parameters: {
            query?: {
                /** @description The workspace (wsp_...) the sheet is expected in; optional, the sheet's own workspace is used */
                workspace_id?: string;
            };
            header?: never;
            path: {
                export_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        export_id: string;
                        /**
                         * @description The download url answers 404 from now on.
                         * @enum {boolean}
                         */
                        revoked: true;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replaceInSheet: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description true replaces every occurrence; otherwise exactly one must exist (409 no_match / ambiguous_match with count). */
                    all?: boolean;
                    /** @description Search only this column; default all columns together. */
                    column?: string;
                    /** @description Write only if the record is at this version (same as If-Match); otherwise 412 version_conflict */
                    expected_version?: number;
                    /** @description Plain text searched for in the stored HTML (no patterns). */
                    find: string;
                    /** @description What each occurrence becomes (may be empty). */
                    replace: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        replaced: number;
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no_match: the text does not occur; ambiguous_match: it occurs more than once (count says how often) and all was not set. Also idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited. */
                        code: string;
                        /** @description How many occurrences were found (ambiguous_match). */
                        count?: number;
                        /** @description What went wrong, naming the field or cause. */
                        error: string;
                        /** @description With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer). */
                        required_role?: string;
                        /** @description With insufficient_scope (403): the scope the credential lacks. */
                        required_scope?: string;
                        /** @enum {boolean} */
                        success: false;
                    };
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreSheet: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSheetRevisions: {
        parameters: {
            query?: {
                /** @description Default 50; values above 100 are clamped to 100. */
                limit?: string;
                offset?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The current version: what its write changed and who made it. */
                        current: {
                            actor: components["schemas"]["Actor"];
                            /** @description What the write that made this version changed: title, content, folder, tags, created, trashed or restored. */
                            changes: string[];
                            /** @description ISO 8601 UTC timestamp */
                            updatedAt: string;
                            version: number;
                        };
                        revisions: {
                            actor: components["schemas"]["Actor"];
                            /** @description What the write that made this version changed: title, content, folder, tags, created, trashed or restored. */
                            changes: string[];
                            folder: string | null;
                            tags: string[];
                            title: string;
                            /** @description ISO 8601 UTC timestamp */
                            updatedAt: string;
                            version: number;
                        }[];
                        /** @enum {boolean} */
                        success: true;
                        total: number;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSheetRevision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        revision: {
                            content: {
                                [key: string]: string;
                            };
                            folder: string | null;
                            tags: string[];
                            title: string;
                            /** @description ISO 8601 UTC timestamp */
                            updatedAt: string;
                            version: number;
                        };
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreSheetRevision: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description The sheet's version in quotes, e.g. "7": send it back in If-Match or If-None-Match. */
                    ETag?: string;
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sheet: components["schemas"]["Sheet"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed (version_conflict): the sheet is not at the version If-Match or expected_version named; nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionConflict"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSheetShares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        shares: components["schemas"]["ShareListItem"][];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSheetShare: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Omitted: until revoked. At most 8760 (a year). */
                    expires_in_hours?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        share: components["schemas"]["Share"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state. Also idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeSheetShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                share_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {boolean} */
                        revoked: true;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSparks: {
        parameters: {
            query?: {
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The configured AI provider; null means only sparks with requires_ai false can run. */
                        ai_provider: ("openai" | "anthropic") | null;
                        sparks: {
                            /** @enum {string} */
                            category: "writing" | "summarize" | "code" | "productivity" | "translate" | "custom";
                            description: string;
                            icon: string;
                            id: string;
                            name: string;
                            /** @description false for sparks that run without an AI provider. */
                            requires_ai: boolean;
                            /** @enum {string} */
                            type: "public" | "user";
                            /** @description The workspace (wsp_...) a user spark is in; null for public sparks. */
                            workspace_id: string | null;
                        }[];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSpark: {
        parameters: {
            query?: {
                /** @description Omitted: run a spark. translate: translate content. create: create a user spark. */
                action?: "translate" | "create";
            };
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Create: optional, one of writing, summarize, code, productivity, translate, custom; default custom. */
                    category?: string;
                    /** @description Run and translate: required, 1-100000 characters. */
                    content?: string;
                    /** @description Create: optional, up to 500 characters. */
                    description?: string;
                    /** @description Create: optional icon name, default sparkles. */
                    icon?: string;
                    /** @description Create: required, 1-100 characters. */
                    name?: string;
                    /** @description Create: required template, up to 10000 characters; {{content}} marks where the text goes (without it the text is appended after the prompt). */
                    prompt?: string;
                    /** @description Run and translate: optional. A sheet of the caller's. */
                    sheet_id?: string;
                    /** @description Run: required. The spark to run. */
                    spark_id?: string;
                    /** @description Translate: required, one of en, ja, zh, ko, es, fr, de, pt, it, ru. */
                    target_lang?: string;
                    /** @description Run, translate and create: optional workspace (wsp_...); default personal (a run on a sheet: the sheet's). */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        result: string;
                        spark_id: string;
                        spark_name: string;
                        /** @enum {boolean} */
                        success: true;
                    } | {
                        result: string;
                        /** @enum {boolean} */
                        success: true;
                        /** @enum {string} */
                        target_lang: "en" | "ja" | "zh" | "ko" | "es" | "fr" | "de" | "pt" | "it" | "ru";
                    } | {
                        id: string;
                        spark: components["schemas"]["Spark"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The AI provider failed or timed out. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A required backend (such as the AI provider) is not configured. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSpark: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        spark: components["schemas"]["Spark"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSpark: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    category?: "writing" | "summarize" | "code" | "productivity" | "translate" | "custom";
                    description?: string;
                    icon?: string;
                    name?: string;
                    prompt?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        spark: components["schemas"]["Spark"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSpark: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStats: {
        parameters: {
            query?: {
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        stats: components["schemas"]["Stats"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordWorktime: {
        parameters: {
            query: {
                /** @description The only action is worktime (record work time). */
                action: "worktime";
            };
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Default: today (UTC). */
                    date?: string;
                    description?: string;
                    hours: number;
                    project?: string;
                    /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        log: components["schemas"]["WorkLog"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTodos: {
        parameters: {
            query?: {
                /** @description Only tasks of this project; an empty value selects tasks with no project. */
                project?: string;
                status?: "pending" | "in_progress" | "completed";
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        todos: components["schemas"]["Todo"][];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    syncTodos: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Omitted or "" means no project. */
                    project?: string;
                    /** @description The session making this change (a session id, or its external_id such as cc:<id>): the briefing says where a task was left. */
                    session_ref?: string;
                    todos: {
                        activeForm?: string | null;
                        content: string;
                        /** @description With id only: update the task only if it is at this version; otherwise 412 version_conflict (with current_version) and the whole sync changes nothing. */
                        expected_version?: number;
                        /** @description Updates exactly this task; unknown -> 404, a task of another account or of another workspace than the one synced -> 403. */
                        id?: string;
                        /**
                         * @description Default medium on create; kept on update when omitted.
                         * @enum {string}
                         */
                        priority?: "low" | "medium" | "high";
                        /** @enum {string} */
                        status: "pending" | "in_progress" | "completed";
                    }[];
                    /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Elements that created a new task. */
                        created: number;
                        /** @enum {boolean} */
                        success: true;
                        /** @description The request project's tasks after the sync, newest first. */
                        todos: components["schemas"]["Todo"][];
                        /** @description Elements that matched an existing task (by id, or by project + trimmed content). */
                        updated: number;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description version_conflict: the record is not at the version If-Match or expected_version names; current_version tells which it is. Nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited. */
                        code: string;
                        /** @description The version the record is at now. */
                        current_version: number;
                        /** @description What went wrong, naming the field or cause. */
                        error: string;
                        /** @description With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer). */
                        required_role?: string;
                        /** @description With insufficient_scope (403): the scope the credential lacks. */
                        required_scope?: string;
                        /** @enum {boolean} */
                        success: false;
                    };
                };
            };
            /** @description The body is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTodo: {
        parameters: {
            query?: never;
            header?: {
                /** @description A version as an entity tag: "3", W/"3", a comma-separated list of them, or *. On mismatch: 412 version_conflict with current_version; nothing changes. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description version_conflict: the record is not at the version If-Match or expected_version names; current_version tells which it is. Nothing changed. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable machine code, e.g. invalid_request, unauthorized, forbidden, not_found, rate_limited. */
                        code: string;
                        /** @description The version the record is at now. */
                        current_version: number;
                        /** @description What went wrong, naming the field or cause. */
                        error: string;
                        /** @description With forbidden (403) in a workspace: the role the action needs (owner, admin, editor or viewer). */
                        required_role?: string;
                        /** @description With insufficient_scope (403): the scope the credential lacks. */
                        required_scope?: string;
                        /** @enum {boolean} */
                        success: false;
                    };
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description The workspace (wsp_...) to create in or list; default: your personal workspace (or the workspace your key is restricted to) */
                workspace_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        webhooks: components["schemas"]["Webhook"][];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event names, or `*` for all events. */
                    events: string[];
                    name?: string;
                    /** @description HTTPS delivery target. Must not carry credentials. */
                    url: string;
                    /** @description The workspace whose events the webhook receives (default: your personal one); a team workspace's webhooks need the admin role there */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        webhook: components["schemas"]["CreatedWebhook"];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Default 20; values above 100 are clamped to 100. */
                limit?: string;
                offset?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["WebhookDelivery"][];
                        /** @enum {boolean} */
                        success: true;
                        total: number;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                delivery_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state. Also idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enableWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        webhook: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkspaces: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        workspaces: components["schemas"]["Workspace"][];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        workspace: components["schemas"]["Workspace"];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        workspace: components["schemas"]["Workspace"];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        workspace: components["schemas"]["Workspace"];
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The workspace's name, exactly: deleting removes the workspace and its records. */
                    confirm: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkspaceInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitations: components["schemas"]["PendingWorkspaceInvitation"][];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWorkspaceInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (no spaces or control characters), else 400. The same credential (API key or OAuth grant), key, method, path and body within 24 hours replays the first 2xx answer (status and body, with Idempotent-Replayed: true) and does nothing again. Only 2xx answers are kept. Another credential of the account using the same key runs its own request. Same key with another request: 422 idempotency_key_reused; while the first is still running: 409 idempotency_key_in_progress. */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Default 168 (7 days); at most 720. */
                    expires_in_hours?: number;
                    /** @enum {string} */
                    role: "admin" | "editor" | "viewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitation: components["schemas"]["WorkspaceInvitation"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state, e.g. idempotency_key_in_progress: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key was used within 24 hours for a different request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeWorkspaceInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                invitation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {boolean} */
                        revoked: true;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkspaceMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: components["schemas"]["WorkspaceMember"][];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWorkspaceMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "owner" | "admin" | "editor" | "viewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        member: components["schemas"]["WorkspaceMember"];
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeWorkspaceMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        removed: true;
                        /** @enum {boolean} */
                        success: true;
                        user_id: string;
                        workspace_id: string;
                    };
                };
            };
            /** @description Invalid request: a field is missing, mistyped or out of range, or the JSON is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or disabled. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource belongs to another account, or the plan doesn't include this feature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No resource with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan's requests-per-minute limit is exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
