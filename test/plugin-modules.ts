// Typed views of the Claude Code plugin's hook modules (plain .mjs without declarations, shipped as is).
// @ts-expect-error: plain .mjs module without type declarations
import * as redactJs from '../plugins/claude-code/scripts/redact.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as projectJs from '../plugins/claude-code/scripts/project.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as transcriptJs from '../plugins/claude-code/scripts/transcript.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as spoolJs from '../plugins/claude-code/scripts/spool.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as http1Js from '../plugins/claude-code/scripts/http1.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as tasksJs from '../plugins/claude-code/scripts/tasks.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as inboxJs from '../plugins/claude-code/scripts/inbox.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as clientJs from '../plugins/claude-code/scripts/client.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as ownerJs from '../plugins/claude-code/scripts/owner.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as stateJs from '../plugins/claude-code/scripts/state.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as briefJs from '../plugins/claude-code/scripts/brief.mjs';
// @ts-expect-error: plain .mjs module without type declarations
import * as configJs from '../plugins/claude-code/scripts/config.mjs';

/** What Claude Code runs (hooks/hooks.json): the generated bundle of the modules above. */
export const HOOK_SCRIPT = new URL('../plugins/claude-code/hooks/hook.cjs', import.meta.url).pathname;
/** The capture hooks' command (hooks/hooks.json): keeps the event in the inbox, starts the sender detached. */
export const CAPTURE_SCRIPT = new URL('../plugins/claude-code/hooks/capture.sh', import.meta.url).pathname;
/** The readable entry the bundle is built from; runs the same way. */
export const HOOK_SOURCE = new URL('../plugins/claude-code/scripts/hook.mjs', import.meta.url).pathname;

export const redact: (text: string) => string = redactJs.redact;
/** The rules redact runs, in order: `needles` tell which ones a text can match at all. */
export const redactRules: { re?: RegExp; to?: string | ((...groups: string[]) => string); apply?: (text: string) => string; needles: string[]; lower?: boolean }[] = redactJs.RULES;
/** redact, after removing each of the given literals (the .env values a session read) wherever it stands. */
export const redactWith: (literals: string[]) => (text: string) => string = redactJs.redactWith;
export const redactDeep: <T>(value: T) => T = redactJs.redactDeep;

export const detectProject: (cwd: string, override?: string) => string = projectJs.detectProject;
export const findRepo: (cwd: string) => { root: string; configFile: string | null } | null = projectJs.findRepo;
export const repoNameFromUrl: (url: string) => string = projectJs.repoNameFromUrl;

export interface ParsedTranscript {
  prompts: string[];
  lastAssistant: string;
  files: string[];
  /** Values of the .env files the session read. */
  secrets?: string[];
  tasksDone?: string[];
  tasksOpen?: string[];
  /** Bash commands that failed, each with its output's first error line (not yet redacted). */
  errors?: { command: string; error: string }[];
}
export interface SessionBody {
  title: string;
  summary: string;
  project: string;
  tags: string[];
  files_changed: string[];
  outcome?: string;
  tasks_done: string[];
  tasks_open: string[];
  errors: { command: string; error: string }[];
  prompts: string[];
  agent: 'claude-code';
  source: 'capture';
}
export const parseTranscript: (text: string) => ParsedTranscript = transcriptJs.parseTranscript;
export const relativeFiles: (files: string[], root: string) => string[] = transcriptJs.relativeFiles;
export const firstErrorLine: (output: string) => string = transcriptJs.firstErrorLine;
export const buildSession: (o: { parsed: ParsedTranscript; project: string; root: string; sessionId: string }) => SessionBody | null = transcriptJs.buildSession;

export interface SpoolRequest {
  method: string;
  path: string;
  body?: unknown;
}
export interface Claim {
  name: string;
  file: string;
  request: SpoolRequest & { at: string };
}
/** Whose a kept request is: the service URL and the fingerprint of the API key it was captured under. */
export interface Owner {
  url: string;
  key: string;
}
export const keyFingerprint: (key: string) => string = ownerJs.keyFingerprint;
export const ownerOf: (cfg: { url: string; apiKey: string }) => Owner = ownerJs.ownerOf;
/** Null when the state folder may be used, else why not. */
export const stateRefusal: (cfg: { stateDir: string; inboxDir: string; spoolDir: string }) => string | null = stateJs.stateRefusal;
/** Whether a spool entry is a request the plugin makes. */
export const pluginRequest: (r: unknown) => boolean = clientJs.pluginRequest;
export interface Spool {
  dir: string;
  add(request: SpoolRequest, key: string | undefined, owner: Owner): string;
  list(owner?: Owner): string[];
  claim(name: string): Claim | null;
  release(claim: Claim): void;
  done(claim: Claim): void;
  recoverStale(now?: number): void;
  releaseAll(): void;
  enforceLimits(): string[];
}
export const keyTag: (key: string) => string = spoolJs.keyTag;
export const isoTime: (ms: number) => string = spoolJs.isoTime;
export interface SendStats {
  sent: number;
  dropped: number;
  left: number;
  stalled: boolean;
  deferred: number;
}
/** Sends the spool's entries oldest first until the deadline; stops at the first the service could not take. */
export const flush: (
  cfg: { url: string; apiKey: string },
  spool: Spool,
  o: { deadline: number; perRequestMs: number; log: (m: string) => void; resolve: null | ((capture: unknown) => unknown) },
) => Promise<SendStats> = clientJs.flush;
export const createSpool: (dir: string, o?: { limits?: { entries: number; bytes: number }; log?: (m: string) => void }) => Spool = spoolJs.createSpool;

export interface TaskMap {
  get(id: string): { subject: string; status: string } | undefined;
  set(id: string, value: unknown): void;
  save(): void;
}
export const todoItems: (payload: Record<string, unknown>, map: TaskMap) => { content: string; status: string; activeForm?: string }[] = tasksJs.todoItems;
export const loadTaskMap: (stateDir: string, sessionId: string) => TaskMap = tasksJs.loadTaskMap;
export const pruneTaskMaps: (stateDir: string, now?: number) => void = tasksJs.pruneTaskMaps;

export interface HttpAnswer {
  status: number;
  body: Buffer;
}
export const exchange: (url: URL, o: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number; maxBytes: number }) => Promise<HttpAnswer> = http1Js.exchange;
/** Opens the connection the next exchange with the same origin uses. */
export const preconnect: (url: URL) => Promise<void> = http1Js.preconnect;
export const parseResponse: (buf: Buffer, o?: { ended?: boolean; maxBytes?: number }) => HttpAnswer | null = http1Js.parseResponse;

export interface InboxEvent {
  event: string;
  project: string;
  capture: string;
  owner: Owner | null;
  payload: Record<string, unknown>;
}
export interface SenderLock {
  take(): boolean;
  release(): void;
}
export interface Inbox {
  dir: string;
  list(): string[];
  add(event: string, env: { project?: string; capture?: string; owner?: Owner }, json: string): boolean;
  read(name: string): InboxEvent | null;
  remove(name: string): void;
  lock(): SenderLock;
}
export const createInbox: (dir: string) => Inbox = inboxJs.createInbox;
export const INBOX_LIMIT: number = inboxJs.INBOX_LIMIT;
export const LOCK_NAME: string = inboxJs.LOCK_NAME;

export interface BriefConfig {
  stateDir: string;
  briefingMaxChars: number;
  briefingOthers: 'include' | 'exclude';
}
/** The plugin's settings as the hooks read them from an environment. */
export const readConfig: (env: Record<string, string | undefined>) => BriefConfig & { url: string; apiKey: string; spoolDir: string; inboxDir: string } = configJs.readConfig;
/** This SessionStart's briefing budget; 0: no briefing (a resume of a session already briefed). */
export const briefingBudget: (payload: { source?: string; session_id?: string }, cfg: BriefConfig) => number = briefJs.briefingBudget;
export const briefingPath: (project: string, cfg: BriefConfig, maxChars: number) => string = briefJs.briefingPath;
export const markBriefed: (stateDir: string, sessionId: string) => void = briefJs.markBriefed;
export const showOnce: (stateDir: string, kind: string | null) => boolean = briefJs.showOnce;
export const staleEntries: (names: string[], now?: number) => { count: number; oldest: string } | null = briefJs.staleEntries;
