import type { Digest, DigestHandover, DigestKnowledge, DigestSession, DigestTodo } from './memory-format.js';

/**
 * Reads an exported section (memory-format.ts renderDigest) back into a Digest. Line-based and forgiving:
 * what it does not recognise (a person's edits between the records) is skipped, never guessed at.
 */

type Rec =
  | { kind: 'handover'; title: string; meta: Record<string, unknown>; fields: Map<string, string[]>; errors: { command: string; error: string }[] }
  | { kind: 'record'; title: string; meta: Record<string, unknown>; metaKind?: string; fields: Map<string, string[]>; errors: { command: string; error: string }[] };

const META = /^<!-- sw:(handover|session|solution|snippet) (.*) -->$/;
const TODO = /^- \[( |~)\] (.*?)(?: \((low|high) priority\))?$/;

export function parseDigest(section: string, project: string): Digest {
  const d: Digest = { project, workspaceId: '', handover: null, sessions: [], todos: [], knowledge: [] };
  const ws = /from workspace (wsp_[a-z0-9]+|usr_[a-z0-9]+)/.exec(section);
  if (ws) d.workspaceId = ws[1]!;
  const recs: Rec[] = [];
  let mode: 'none' | 'sessions' | 'todos' | 'knowledge' = 'none';
  let cur: Rec | null = null;
  let field: string | null = null;

  for (const raw of section.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('### Latest handover: ')) {
      cur = { kind: 'handover', title: line.slice(21), meta: {}, fields: new Map(), errors: [] };
      recs.push(cur);
      field = null;
      mode = 'none';
      continue;
    }
    if (line.startsWith('### ')) {
      mode = /^### Recent sessions/.test(line) ? 'sessions' : /^### Open todos/.test(line) ? 'todos' : /^### Knowledge/.test(line) ? 'knowledge' : 'none';
      cur = null;
      field = null;
      continue;
    }
    if (line.startsWith('#### ') && (mode === 'sessions' || mode === 'knowledge')) {
      cur = { kind: 'record', title: line.slice(5), meta: {}, fields: new Map(), errors: [] };
      recs.push(cur);
      field = null;
      continue;
    }
    if (mode === 'todos') {
      const t = TODO.exec(line);
      if (t) d.todos.push({ content: t[2]!, status: t[1] === '~' ? 'in_progress' : 'pending', priority: (t[3] as DigestTodo['priority']) ?? 'medium' });
      continue;
    }
    if (!cur) continue;
    const m = META.exec(line);
    if (m) {
      try {
        cur.meta = JSON.parse(m[2]!);
        if (cur.kind === 'record') cur.metaKind = m[1];
      } catch {
        /* a hand-edited comment: the record is skipped below */
      }
      continue;
    }
    const label = /^\*\*([A-Za-z ]+):\*\*(?: (.*))?$/.exec(line);
    if (label) {
      field = label[1]!;
      cur.fields.set(field, label[2] !== undefined ? [label[2]] : []);
      continue;
    }
    if (!field) continue;
    const values = cur.fields.get(field)!;
    if (field === 'Failed commands') {
      if (line.startsWith('- $ ')) cur.errors.push({ command: line.slice(4), error: '' });
      else if (line.startsWith('  ! ') && cur.errors.length) cur.errors[cur.errors.length - 1]!.error = line.slice(4);
    } else if (line === '>' || line.startsWith('> ')) values.push(line.slice(2));
    else if (field === 'Next steps' && /^\d+\. /.test(line)) values.push(line.replace(/^\d+\. /, ''));
    else if (line.startsWith('- ')) values.push(line.slice(2));
  }

  const text = (r: Rec, f: string) => (r.fields.get(f) ?? []).join('\n').trim();
  const list = (r: Rec, f: string) => r.fields.get(f) ?? [];
  for (const r of recs) {
    if (r.kind === 'handover') {
      if (typeof r.meta.session !== 'string') continue;
      const h: DigestHandover = {
        title: r.title,
        sessionId: r.meta.session,
        external: typeof r.meta.external === 'string' ? r.meta.external : null,
        sessionTitle: text(r, 'Session') || r.title,
        summary: text(r, 'Summary'),
        files: list(r, 'Files'),
        steps: list(r, 'Next steps'),
        notes: text(r, 'Notes'),
      };
      d.handover = h;
    } else if (r.metaKind === 'session' && typeof r.meta.id === 'string') {
      const s: DigestSession = {
        id: r.meta.id,
        external: typeof r.meta.external === 'string' ? r.meta.external : null,
        agent: typeof r.meta.agent === 'string' ? r.meta.agent : null,
        title: r.title,
        outcome: text(r, 'Outcome') || null,
        summary: text(r, 'Summary') || r.title,
        files: list(r, 'Files'),
        errors: r.errors,
      };
      d.sessions.push(s);
    } else if ((r.metaKind === 'solution' || r.metaKind === 'snippet') && typeof r.meta.id === 'string' && typeof r.meta.ref === 'string') {
      const k: DigestKnowledge = {
        id: r.meta.id,
        ref: r.meta.ref,
        kind: r.metaKind,
        title: r.title,
        error: text(r, 'Error') || null,
        description: text(r, 'Description') || null,
        language: typeof r.meta.language === 'string' ? r.meta.language : null,
        content: text(r, r.metaKind === 'solution' ? 'Fix' : 'Content'),
      };
      if (k.content) d.knowledge.push(k);
    }
  }
  return d;
}
