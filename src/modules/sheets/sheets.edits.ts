import { AppError, invalid } from '../../errors.js';
import type { TxRunner } from '../../events/outbox.js';
import type { AuthContext } from '../../auth/context.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import type { AddColumnInput, AppendInput, InWorkspace, ReplaceInput } from './sheets.schemas.js';
import { columnOrder } from './sheets.columns.js';
import { toSheetView, type Content } from './sheets.view.js';
import type { SheetWriter } from './sheets.write.js';

/** Same bound as a column sent in a PUT. */
export const COLUMN_MAX_CHARS = 500_000;
const MAX_COLUMNS = 99;

function checkSize(column: string, html: string) {
  if (html.length > COLUMN_MAX_CHARS) throw invalid(`column ${column} would hold ${html.length} characters; at most ${COLUMN_MAX_CHARS}`);
}

/** Non-overlapping occurrences of `find` in `text`. */
const occurrences = (text: string, find: string) => text.split(find).length - 1;

/**
 * Edits that need no read first: each runs under the row lock of one transaction and changes only
 * the columns it names, so concurrent edits of a sheet never lose each other's work.
 */
/** An edit applied before the transaction (sheets.service.ts, editable): its content, or the error it threw. */
export interface EditedBefore<R> {
  workspaceId: string;
  version: number;
  content: Content;
  outcome: { result: R } | { error: unknown };
}

export function createSheetEdits(deps: {
  writer: SheetWriter;
  tx: TxRunner;
  /**
   * Before the transaction: checks the caller may write the sheet (with `opts.workspace_id`, a sheet in
   * another workspace is a 403), applies `edit` to its content as read, and reads the search text of the
   * columns it leaves off the event loop.
   */
  editable: <R>(caller: AuthContext, id: string, opts: InWorkspace, edit: (content: Content) => R) => Promise<EditedBefore<R>>;
}) {
  const { writer, tx } = deps;

  /**
   * Runs `edit` on the sheet's content and writes a new version when the content changed. The edit runs
   * once, before the transaction; under the row lock its result is used while the version is the one it
   * read, and only a write that landed in between makes it run again, on the newer content.
   */
  async function editContent<R>(auth: AuthContext, id: string, expected: ExpectedVersions, opts: InWorkspace, edit: (content: Content) => R) {
    const before = await deps.editable(auth, id, opts, edit);
    return tx(async (trx) => {
      const row = await writer.lockOwned(trx, before.workspaceId, id, expected);
      const current = toSheetView(row);
      let content = before.content;
      let result: R;
      if (row.version === before.version) {
        if ('error' in before.outcome) throw before.outcome.error;
        result = before.outcome.result;
      } else {
        content = { ...current.content };
        result = edit(content);
      }
      const sheet = JSON.stringify(content) === JSON.stringify(current.content) ? current : await writer.save(trx, auth, row, { ...current, content }, ['content']);
      return { result, sheet };
    });
  }

  return {
    /** Appends to one column: the named one (created if absent), else the highest-numbered, else col1. */
    async append(auth: AuthContext, id: string, input: AppendInput, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      const { sheet } = await editContent(auth, id, expected, opts, (content) => {
        const column = input.column ?? columnOrder(Object.keys(content)).at(-1) ?? 'col1';
        const old = content[column] ?? '';
        const html = old === '' ? input.html : old + (input.separator ?? '') + input.html;
        checkSize(column, html);
        content[column] = html;
      });
      return { sheet };
    },

    /** Plain-text find and replace in the stored HTML of one column or of all of them. */
    async replace(auth: AuthContext, id: string, input: ReplaceInput, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      const { result: replaced, sheet } = await editContent(auth, id, expected, opts, (content) => {
        const columns = input.column ? [input.column].filter((k) => k in content) : columnOrder(Object.keys(content));
        const counts = columns.map((k) => occurrences(content[k], input.find));
        const total = counts.reduce((a, b) => a + b, 0);
        const where = input.column ? `column ${input.column}` : 'the sheet';
        if (!input.all && total === 0) throw new AppError('no_match', `the text to find does not occur in ${where}`, undefined, { count: 0 });
        if (!input.all && total > 1) {
          throw new AppError('ambiguous_match', `the text to find occurs ${total} times in ${where}; send a longer find, or all: true`, undefined, { count: total });
        }
        columns.forEach((k, i) => {
          if (counts[i] === 0) return;
          const html = content[k].split(input.find).join(input.replace);
          checkSize(k, html);
          content[k] = html;
        });
        return total;
      });
      return { replaced, sheet };
    },

    /** Adds the lowest unused column key, empty unless html is given. */
    async addColumn(auth: AuthContext, id: string, input: AddColumnInput, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      const { result: column, sheet } = await editContent(auth, id, expected, opts, (content) => {
        let n = 1;
        while (n <= MAX_COLUMNS && `col${n}` in content) n++;
        if (n > MAX_COLUMNS) throw new AppError('conflict', `sheet ${id} already has all ${MAX_COLUMNS} columns`);
        content[`col${n}`] = input.html ?? '';
        return `col${n}`;
      });
      return { column, sheet };
    },

    async removeColumn(auth: AuthContext, id: string, column: string, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      const { sheet } = await editContent(auth, id, expected, opts, (content) => {
        if (!(column in content)) throw new AppError('not_found', `sheet ${id} has no column ${column}`);
        delete content[column];
      });
      return { sheet };
    },
  };
}
