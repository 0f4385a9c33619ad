import type { SessionView } from '../sessions/sessions.schemas.js';
import type { SolutionView, SnippetView } from '../knowledge/knowledge.schemas.js';
import type { TodoView } from '../todos/todos.schemas.js';
import type { WorkLogView } from '../stats/stats.schemas.js';

/** Markdown files of an account export, readable in any editor: YAML front matter, then the text. */

const yaml = (s: string | null) => JSON.stringify(s ?? '');
const front = (fields: Record<string, string | string[] | null | undefined>) =>
  [
    '---',
    ...Object.entries(fields)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.map(yaml).join(', ')}]` : yaml(v as string)}`),
    '---',
    '',
  ].join('\n');

/** A file name from a title: letters and digits kept (any script), the rest one dash, then the id so names never collide. */
export function fileName(title: string, id: string): string {
  const slug = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug ? `${slug}-` : ''}${id}.md`;
}

/** The longest run of backticks in `text`, plus one, so a fence never closes early. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

export function sessionMarkdown(s: SessionView): string {
  const files = s.files_changed.length ? s.files_changed.map((f) => `- \`${f}\``).join('\n') : 'None recorded.';
  return (
    front({ title: s.title, project: s.project, tags: s.tags, created: s.createdAt, updated: s.updatedAt ?? undefined, external_id: s.external_id ?? undefined }) +
    `\n# ${s.title}\n\n${s.summary}\n\n## Files changed\n\n${files}\n`
  );
}

export function solutionMarkdown(s: SolutionView): string {
  const error = s.error ? `## Error\n\n${fence(s.error)}\n${s.error}\n${fence(s.error)}\n\n` : '';
  return front({ title: s.title, language: s.language, tags: s.tags, created: s.createdAt }) + `\n# ${s.title}\n\n${error}## Solution\n\n${s.content}\n`;
}

export function snippetMarkdown(s: SnippetView): string {
  const f = fence(s.content);
  const description = s.description ? `${s.description}\n\n` : '';
  return front({ title: s.title, language: s.language, tags: s.tags, created: s.createdAt }) + `\n# ${s.title}\n\n${description}${f}${s.language ?? ''}\n${s.content}\n${f}\n`;
}

const BOX: Record<TodoView['status'], string> = { pending: '[ ]', in_progress: '[-]', completed: '[x]' };

/** One file per project: its tasks as a checklist, open ones first. */
export function todosMarkdown(project: string, todos: TodoView[]): string {
  const order = { in_progress: 0, pending: 1, completed: 2 } as const;
  const lines = [...todos]
    .sort((a, b) => order[a.status] - order[b.status] || a.createdAt - b.createdAt)
    .map((t) => `- ${BOX[t.status]} ${t.content}${t.status === 'in_progress' ? ' (in progress)' : ''} — ${t.priority}`);
  return `# Todos: ${project || 'no project'}\n\n${lines.join('\n')}\n`;
}

export function workLogMarkdown(logs: WorkLogView[]): string {
  const cell = (s: string | null) => (s ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const rows = logs.map((l) => `| ${l.date} | ${l.hours} | ${cell(l.project)} | ${cell(l.description)} |`);
  return `# Work log\n\n| Date | Hours | Project | Description |\n|---|---:|---|---|\n${rows.join('\n')}\n`;
}
