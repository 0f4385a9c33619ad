import type { Sheet } from './types.ts';

/** What the person edits: text fields as typed, content by column key (a missing key is a removed column). */
export interface Draft {
  title: string;
  folder: string;
  tags: string;
  content: Record<string, string>;
}

export const FIELDS = ['title', 'folder', 'tags'] as const;

export const draftOf = (s: Sheet): Draft => ({ title: s.title, folder: s.folder ?? '', tags: s.tags.join(', '), content: { ...s.content } });

export const columnOrder = (keys: string[]) => [...keys].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));

const tagList = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

/** The PUT body for what differs between `from` and `to`; `all` sends every field (keeping one's own text over a newer version). */
export function patchOf(from: Draft, to: Draft, all = false): Record<string, unknown> | null {
  const body: Record<string, unknown> = {};
  if (all || to.title !== from.title) body.title = to.title.trim() || 'Untitled';
  if (all || to.folder !== from.folder) body.folder = to.folder.trim() || null;
  if (all || to.tags !== from.tags) body.tags = tagList(to.tags);
  const content: Record<string, string | null> = {};
  for (const k of new Set([...Object.keys(from.content), ...Object.keys(to.content)])) {
    if (!(k in to.content)) content[k] = null;
    else if (all || to.content[k] !== from.content[k]) content[k] = to.content[k];
  }
  if (Object.keys(content).length) body.content = content;
  return Object.keys(body).length ? body : null;
}

export const isDirty = (base: Draft, draft: Draft) => patchOf(base, draft) !== null;

/**
 * Three-way merge of a newer server version into the person's draft: fields they did not touch take
 * the server's value; fields they changed stay theirs. Returns the fields both sides changed.
 */
export function mergeRemote(base: Draft, draft: Draft, remote: Draft): { draft: Draft; clashes: string[] } {
  const next: Draft = { ...draft, content: { ...draft.content } };
  const clashes: string[] = [];
  for (const f of FIELDS) {
    if (draft[f] === base[f]) next[f] = remote[f];
    else if (remote[f] !== base[f] && remote[f] !== draft[f]) clashes.push(f);
  }
  for (const k of new Set([...Object.keys(base.content), ...Object.keys(draft.content), ...Object.keys(remote.content)])) {
    const [b, d, r] = [base.content[k], draft.content[k], remote.content[k]];
    if (d === b) {
      if (r === undefined) delete next.content[k];
      else next.content[k] = r;
    } else if (r !== b && r !== d) clashes.push(k);
  }
  return { draft: next, clashes };
}
