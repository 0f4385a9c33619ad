import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, strToU8 } from 'fflate';
import { AppError } from '../../errors.js';
import { toEntry } from '../knowledge/knowledge.service.js';
import { unpackContent } from '../sheets/sheets.revisions.repo.js';
import { toSheetView } from '../sheets/sheets.view.js';
import { toSessionView } from '../sessions/sessions.write.js';
import { toWorkLogView } from '../stats/stats.service.js';
import { toTodoView } from '../todos/todos.service.js';
import { renderSheet } from '../exports/exports.render.js';
import type { SolutionView, SnippetView } from '../knowledge/knowledge.schemas.js';
import { requireUnrestricted, type Caller } from '../workspaces/workspaces.access.js';
import type { AccountRepo } from './account.repo.js';
import { fileName, sessionMarkdown, snippetMarkdown, solutionMarkdown, todosMarkdown, workLogMarkdown } from './account.markdown.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';

/** What an account export zip says it is; `users import` refuses any other. */
export const EXPORT_FORMAT = 'sheet-workspace-account-export';
export const EXPORT_FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';
const SHEET_PAGE = 200;

const README = `# Sheet Workspace account export

- manifest.json: what this is, when it was made, and how many records of each kind it holds.
- records/: every record as JSON, in the REST API's own shapes (docs/api.md). sheets.jsonl holds one sheet
  per line with its kept earlier versions ("revisions"); webhooks.json leaves their signing secrets out.
- markdown/: the same records as Markdown with YAML front matter, a folder per kind, readable in any editor.

Import it into any Sheet Workspace: npm run cli -- users import <this zip> --name <account name>
`;

/**
 * Streams one account's records as a zip: JSON for machines (records/), Markdown for people (markdown/).
 * Sheets are read a page at a time and written as they come, waiting for the client when it reads slowly.
 */
export function createAccountExport(deps: { repo: AccountRepo; serviceVersion: string; now: () => Date }) {
  const { repo } = deps;

  async function* sheetPages(workspaceId: string) {
    for (let after = ''; ;) {
      const rows = await repo.sheetsAfter(workspaceId, after, SHEET_PAGE);
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.id;
    }
  }

  async function write(userId: string, out: PassThrough, zip: Zip) {
    const counts: Record<string, number> = {};
    const add = (name: string, text: string) => {
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(strToU8(text), true);
    };
    const drained = async () => {
      if (out.writableNeedDrain) await once(out, 'drain');
    };
    const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

    const user = await repo.user(userId);
    if (!user) throw new AppError('not_found', `user ${userId} not found`);
    const personal = personalWorkspaceId(userId);
    add('README.md', README);

    // Sheets: one JSON line each in one entry streamed page by page, then a Markdown file each. Two
    // passes, because the zip queues every entry added while another is still open.
    const sheetsJsonl = new ZipDeflate('records/sheets.jsonl', { level: 6 });
    zip.add(sheetsJsonl);
    counts.sheets = 0;
    counts.revisions = 0;
    for await (const rows of sheetPages(personal)) {
      const revisions = new Map<string, Awaited<ReturnType<AccountRepo['revisionsOf']>>>();
      for (const r of await repo.revisionsOf(rows.map((row) => row.id))) revisions.set(r.sheet_id, [...(revisions.get(r.sheet_id) ?? []), r]);
      for (const row of rows) {
        const kept = (revisions.get(row.id) ?? []).map((r) => ({
          version: r.version,
          title: r.title,
          content: JSON.parse(unpackContent(r.content)),
          folder: r.folder,
          tags: JSON.parse(r.tags),
          updatedAt: r.updated_at,
          actor: r.actor,
        }));
        sheetsJsonl.push(strToU8(`${JSON.stringify({ sheet: toSheetView(row), revisions: kept })}\n`));
        counts.sheets++;
        counts.revisions += kept.length;
      }
      await drained();
    }
    sheetsJsonl.push(new Uint8Array(0), true);
    for await (const rows of sheetPages(personal)) {
      for (const row of rows) {
        const sheet = toSheetView(row);
        add(`markdown/sheets/${sheet.trashedAt ? 'trash/' : ''}${fileName(sheet.title, sheet.id)}`, (await renderSheet(sheet, 'markdown')).body);
      }
      await drained();
    }

    const sessions = (await repo.sessions(personal)).map((r) => toSessionView(r));
    add('records/sessions.json', json(sessions));
    for (const s of sessions) add(`markdown/sessions/${fileName(s.title, s.id)}`, sessionMarkdown(s));
    const handovers = (await repo.handovers(personal)).map((h) => ({ handover_id: h.handover_id, session_id: h.session_id, project: h.project, createdAt: h.created_at }));
    add('records/handovers.json', json(handovers));

    const entries = (await repo.knowledge(personal)).map(toEntry);
    const solutions = entries.flatMap((e) => (e.type === 'solution' ? [e.solution] : [])) as SolutionView[];
    const snippets = entries.flatMap((e) => (e.type === 'snippet' ? [e.snippet] : [])) as SnippetView[];
    add('records/knowledge.json', json({ solutions, snippets }));
    for (const s of solutions) add(`markdown/knowledge/solutions/${fileName(s.title, s.id)}`, solutionMarkdown(s));
    for (const s of snippets) add(`markdown/knowledge/snippets/${fileName(s.title, s.id)}`, snippetMarkdown(s));
    await drained();

    const todos = (await repo.todos(personal)).map(toTodoView);
    add('records/todos.json', json(todos));
    for (const project of [...new Set(todos.map((t) => t.project))]) {
      add(
        `markdown/todos/${fileName(project || 'no project', 'todos')}`,
        todosMarkdown(
          project,
          todos.filter((t) => t.project === project),
        ),
      );
    }
    const workLogs = (await repo.workLogs(personal)).map(toWorkLogView);
    add('records/work_logs.json', json(workLogs));
    if (workLogs.length) add('markdown/work-log.md', workLogMarkdown(workLogs));
    const sparks = (await repo.sparks(personal)).map((s) => ({ id: s.id, name: s.name, description: s.description, icon: s.icon, category: s.category, prompt: s.prompt, createdAt: s.created_at }));
    add('records/sparks.json', json(sparks));
    const webhooks = (await repo.webhooks(personal)).map((w) => ({ id: w.id, url: w.url, events: JSON.parse(w.events) as string[], name: w.name, status: w.status, createdAt: w.created_at }));
    add('records/webhooks.json', json(webhooks));

    Object.assign(counts, {
      sessions: sessions.length,
      handovers: handovers.length,
      solutions: solutions.length,
      snippets: snippets.length,
      todos: todos.length,
      work_logs: workLogs.length,
      sparks: sparks.length,
      webhooks: webhooks.length,
    });
    add(
      MANIFEST,
      json({
        format: EXPORT_FORMAT,
        format_version: EXPORT_FORMAT_VERSION,
        service_version: deps.serviceVersion,
        exported_at: deps.now().toISOString(),
        account: { id: user.id, name: user.name, plan: user.plan },
        counts,
      }),
    );
    zip.end();
  }

  return {
    /** The zip as a stream; records are read while it is sent. The whole account: never for a restricted credential. */
    open(caller: Caller): { filename: string; stream: Readable } {
      requireUnrestricted(caller, 'exporting the whole account');
      const { userId } = caller;
      const out = new PassThrough();
      const zip = new Zip((err, chunk, final) => {
        if (err) return out.destroy(err);
        out.write(chunk);
        if (final) out.end();
      });
      write(userId, out, zip).catch((err: unknown) => out.destroy(err as Error));
      return { filename: `sheet-workspace-${userId}-${deps.now().toISOString().slice(0, 10)}.zip`, stream: out };
    },
  };
}
export type AccountExport = ReturnType<typeof createAccountExport>;
