import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { KnowledgeService } from '../knowledge/knowledge.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import type { SparksService } from '../sparks/sparks.service.js';
import type { StatsService } from '../stats/stats.service.js';
import type { TodosService } from '../todos/todos.service.js';
import { SYNC_MAX_ITEMS } from '../todos/todos.schemas.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import { MANIFEST } from './account.export.js';
import * as In from './account.import-schema.js';
import { unpackBounded, type UnzipBounds } from './account.import-unzip.js';
import type { AccountRepo } from './account.repo.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';

type Content = Record<string, string>;

/** The entries of an export the import reads; the rest (README, Markdown copies) is never inflated. */
const RECORDS = ['sheets.jsonl', 'sessions.json', 'handovers.json', 'knowledge.json', 'todos.json', 'work_logs.json', 'sparks.json', 'webhooks.json'];
const READ = new Set([MANIFEST, ...RECORDS.map((r) => `records/${r}`)]);

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new AppError('invalid_request', `${where}: ${issue.path.join('.') || 'record'} ${issue.message}`);
}

/** Everything in the zip, checked before anything is written: a bad file changes nothing. */
function read(zip: Uint8Array, bounds?: UnzipBounds) {
  const files = unpackBounded(zip, READ, bounds);
  const text = (name: string) => {
    const body = files.get(name);
    if (body === undefined) throw new AppError('invalid_request', `not a Sheet Workspace account export: ${name} is missing`);
    return body;
  };
  const json = (name: string) => {
    try {
      return JSON.parse(text(name)) as unknown;
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('invalid_request', `${name} is not valid JSON`);
    }
  };
  const manifest = parse(In.ImportedManifest, json(MANIFEST), MANIFEST);
  const sheetLines = text('records/sheets.jsonl')
    .split('\n')
    .filter((l) => l.trim());
  const sheets = sheetLines.map((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new AppError('invalid_request', `records/sheets.jsonl line ${i + 1} is not valid JSON`);
    }
    return parse(In.ImportedSheetLine, value, `records/sheets.jsonl line ${i + 1}`);
  });
  return {
    manifest,
    sheets,
    sessions: parse(z.array(In.ImportedSession), json('records/sessions.json'), 'records/sessions.json'),
    handovers: parse(z.array(In.ImportedHandover), json('records/handovers.json'), 'records/handovers.json'),
    knowledge: parse(In.ImportedKnowledge, json('records/knowledge.json'), 'records/knowledge.json'),
    todos: parse(z.array(In.ImportedTodo), json('records/todos.json'), 'records/todos.json'),
    workLogs: parse(z.array(In.ImportedWorkLog), json('records/work_logs.json'), 'records/work_logs.json'),
    sparks: parse(z.array(In.ImportedSpark), json('records/sparks.json'), 'records/sparks.json'),
    webhooks: parse(z.array(In.ImportedWebhook), json('records/webhooks.json'), 'records/webhooks.json'),
  };
}

/** Content that turns `from` into `to` under PUT's merge rule (null removes a column). */
function replacing(from: Content, to: Content): Record<string, string | null> {
  const next: Record<string, string | null> = { ...to };
  for (const key of Object.keys(from)) if (!(key in to)) next[key] = null;
  return next;
}

const orUndefined = <T>(v: T | null | undefined) => (v === null ? undefined : v);

/**
 * `users import`: a new account with every record of an export. Records get new ids; links between them
 * (a handover's session and sheet) follow the new ids. Each sheet's kept revisions are replayed oldest
 * first, so its history comes along. Webhooks get new signing secrets (secrets are never exported).
 */
export function createAccountImport(deps: {
  accounts: AccountsService;
  apiKeys: ApiKeysService;
  sheets: SheetsService;
  sessions: SessionsService;
  knowledge: KnowledgeService;
  todos: TodosService;
  stats: StatsService;
  sparks: SparksService;
  webhooks: WebhooksService;
  repo: AccountRepo;
}) {
  const { sheets, sessions, knowledge, todos, stats, sparks, webhooks, repo } = deps;

  /**
   * The plan is `plan`, else free: never the manifest's, which whoever holds the zip can edit (an
   * operator who wants the exported account's plan says so with --plan).
   */
  return async function importAccount(zip: Uint8Array, name: string, plan?: string, bounds?: UnzipBounds) {
    const data = read(zip, bounds);
    const chosen = plan ?? 'free';
    if (data.webhooks.length && chosen === 'free')
      throw new AppError('invalid_request', `the export holds ${data.webhooks.length} webhook(s), which the free plan cannot have; import with --plan pro or business`);
    const account = await deps.accounts.create({ name, plan: chosen });
    const auth = await deps.apiKeys.authenticate(`Bearer ${account.api_key}`);
    const userId = account.user_id;
    const sheetIds = new Map<string, string>();
    for (const { sheet, revisions } of data.sheets) {
      const states = [...revisions].sort((a, b) => a.version - b.version).map((r) => ({ ...r, version: undefined }));
      const [first, ...later] = [...states, sheet];
      const made = await sheets.create(auth, { title: first!.title, content: first!.content, folder: orUndefined(first!.folder), tags: first!.tags });
      let content: Content = made.content;
      for (const state of later) {
        await sheets.update(auth, made.id, { title: state.title, content: replacing(content, state.content ?? {}), folder: state.folder ?? null, tags: state.tags ?? [] });
        content = state.content ?? {};
      }
      if (sheet.trashedAt) await sheets.remove(auth, made.id);
      sheetIds.set(sheet.id, made.id);
    }
    const sessionIds = new Map<string, string>();
    for (const s of data.sessions) {
      const input = {
        title: s.title,
        summary: s.summary,
        project: orUndefined(s.project),
        tags: s.tags,
        files_changed: s.files_changed,
        outcome: orUndefined(s.outcome ?? null),
        tasks_done: s.tasks_done,
        tasks_open: s.tasks_open,
        errors: s.errors,
        prompts: s.prompts,
        agent: orUndefined(s.agent ?? null),
        source: s.source,
      };
      const made = s.external_id ? (await sessions.upsert(auth, s.external_id, input)).session : await sessions.create(auth, input);
      sessionIds.set(s.id, made.id);
    }
    for (const h of data.handovers) {
      const sheetId = sheetIds.get(h.handover_id);
      const sessionId = sessionIds.get(h.session_id);
      if (sheetId && sessionId) await repo.linkHandover(personalWorkspaceId(userId), userId, sheetId, sessionId);
    }
    for (const [type, list] of [
      ['solutions', data.knowledge.solutions],
      ['snippets', data.knowledge.snippets],
    ] as const) {
      for (const k of list) {
        await knowledge.create(auth, type, {
          title: k.title,
          content: k.content,
          language: orUndefined(k.language),
          tags: k.tags,
          ...(type === 'solutions' ? { error: orUndefined(k.error) } : { description: orUndefined(k.description) }),
        });
      }
    }
    for (const project of new Set(data.todos.map((t) => t.project))) {
      const items = data.todos.filter((t) => t.project === project).map(({ project: _p, ...item }) => item);
      for (let i = 0; i < items.length; i += SYNC_MAX_ITEMS) await todos.sync(auth, { project, todos: items.slice(i, i + SYNC_MAX_ITEMS) });
    }
    for (const w of data.workLogs) await stats.recordWorktime(auth, { hours: w.hours, date: w.date, project: orUndefined(w.project), description: orUndefined(w.description) });
    for (const s of data.sparks) await sparks.create(auth, s);
    const madeWebhooks: { id: string; url: string; secret: string }[] = [];
    for (const w of data.webhooks) {
      const made = await webhooks.create(auth, account.plan, { url: w.url, events: w.events, name: orUndefined(w.name) });
      if (w.status === 'disabled') await webhooks.disable(auth, made.id, 'disabled in the account this one was imported from; enable it to receive events');
      madeWebhooks.push({ id: made.id, url: made.url, secret: made.secret });
    }
    return { user_id: userId, api_key: account.api_key, webhooks: madeWebhooks };
  };
}
export type AccountImport = ReturnType<typeof createAccountImport>;
