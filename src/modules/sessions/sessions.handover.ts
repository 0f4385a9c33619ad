import type { SessionsTable, TodosTable } from '../../db/types.js';

/** User text goes into HTML columns, so every piece of it is escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Paragraphs split on blank lines; single newlines become <br>. */
function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

const list = (tag: 'ol' | 'ul', items: string[]) => `<${tag}>${items.map((i) => `<li>${i}</li>`).join('')}</${tag}>`;
const STATUS_LABEL: Record<string, string> = { pending: 'pending', in_progress: 'in progress' };

export interface HandoverParts {
  session: SessionsTable;
  nextSteps: string[];
  notes?: string;
  /** Undefined when the credential may not read todos: the column says so instead of listing them. */
  openTodos?: TodosTable[];
}

/**
 * The three columns of a handover sheet (decisions.md): col1 summary and files changed,
 * col2 next steps (ordered) and the project's open todos, col3 notes.
 */
export function handoverColumns({ session, nextSteps, notes, openTodos }: HandoverParts): Record<'col1' | 'col2' | 'col3', string> {
  const files = JSON.parse(session.files_changed) as string[];
  const col1 =
    `<h2>Summary</h2>${paragraphs(session.summary)}` +
    `<h3>Files changed</h3>${
      files.length
        ? list(
            'ul',
            files.map((f) => `<code>${escapeHtml(f)}</code>`),
          )
        : '<p>None recorded.</p>'
    }`;
  const steps = nextSteps.map((s) => s.trim()).filter((s) => s.length > 0);
  const col2 =
    `<h2>Next steps</h2>${steps.length ? list('ol', steps.map(escapeHtml)) : '<p>None given.</p>'}` +
    `<h3>Open todos</h3>${
      !openTodos
        ? '<p>Not included: the credential that made this handover may not read todos (todos:read).</p>'
        : openTodos.length
          ? list(
              'ul',
              openTodos.map((t) => `${escapeHtml(t.content)} <em>(${STATUS_LABEL[t.status] ?? t.status}, ${t.priority})</em>`),
            )
          : '<p>No open todos.</p>'
    }`;
  const col3 = `<h2>Notes</h2>${notes?.trim() ? paragraphs(notes) : '<p>No notes.</p>'}`;
  return { col1, col2, col3 };
}
