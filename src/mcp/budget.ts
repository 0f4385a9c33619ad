import { z } from 'zod';
import { cutPoint } from '../modules/sheets/sheets.window.js';
import { nextAt } from './paging.js';

/**
 * MCP_RESULT_MAX_CHARS: no tool result's text (or structuredContent, which is the same value more
 * compactly written) is longer. A larger result is cut, not refused: list items are dropped from the
 * end of the largest list, long strings are cut to one common length at a window boundary (src/modules/
 * sheets/sheets.window.ts), so many columns each keep their beginning rather than the first ones
 * keeping everything, and `truncated` says what was left out and how to read it. Every cut keeps the
 * value's shape, so structuredContent still matches the tool's output schema.
 */

export const DEFAULT_RESULT_MAX_CHARS = 25_000;

/** Declared (optional) on every tool's output schema by ToolRegistry.define. */
export const TruncatedField = z.string().describe('Present only when the result was cut to fit the result size limit (MCP_RESULT_MAX_CHARS): what was left out and how to read it.');

/** Room kept for the note itself (a longer note is shortened, a larger value cut further). */
const NOTE_ROOM = 1200;
/** The least room a note is shortened to (its first sentence and a little more) before the value is cut further. */
const NOTE_MIN = 200;
/** Strings longer than this are cut first; shorter ones (ids, dates, enums) only when nothing else is left. */
const LONG = 80;
/** When no long string or fitting list is left: shorter strings (with their siblings), then emptying lists, then anything. */
const FALLBACK_LENGTHS = [40, 20] as const;
const render = (v: unknown) => JSON.stringify(v, null, 2);

type Path = (string | number)[];
type Holder = Record<string | number, unknown>;
interface Spot {
  parent: Holder;
  key: string | number;
  path: Path;
  size: number;
}

/** Every non-empty array and every string longer than minString in the value, largest first. */
function spots(value: unknown, minString: number): Spot[] {
  const out: Spot[] = [];
  const walk = (node: unknown, path: Path) => {
    if (Array.isArray(node)) node.forEach((child, i) => visit(node as unknown as Holder, i, child, [...path, i]));
    else if (node && typeof node === 'object') for (const [k, child] of Object.entries(node)) visit(node as Holder, k, child, [...path, k]);
  };
  const visit = (parent: Holder, key: string | number, child: unknown, path: Path) => {
    if ((Array.isArray(child) && child.length > 0) || (typeof child === 'string' && child.length > minString)) {
      out.push({ parent, key, path, size: render(child).length });
    }
    walk(child, path);
  };
  walk(value, []);
  return out.sort((a, b) => b.size - a.size);
}

/** Largest n in [lo, hi] with fits(n), assuming fits is monotone; lo when none. */
function largestFitting(lo: number, hi: number, fits: (n: number) => boolean): number {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const dotted = (path: Path) =>
  path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
const codePoints = (s: string) => Array.from(s).length;

/** What was cut, by path, with its size before the first cut; what is left is read from the value at the end. */
type Cuts = Map<string, { path: Path; kind: 'list' | 'string'; before: number }>;
function remember(cuts: Cuts, spot: Spot, kind: 'list' | 'string', before: number) {
  const id = dotted(spot.path);
  if (!cuts.has(id)) cuts.set(id, { path: spot.path, kind, before });
}

function cutList(root: unknown, spot: Spot, target: number, cuts: Cuts) {
  const list = spot.parent[spot.key] as unknown[];
  remember(cuts, spot, 'list', list.length);
  const all = list.slice();
  const keep = largestFitting(0, all.length - 1, (n) => {
    spot.parent[spot.key] = all.slice(0, n);
    return render(root).length <= target;
  });
  spot.parent[spot.key] = all.slice(0, keep);
  // When even no item fits, something else is large too: one item stays, and a later round cuts there.
  if (keep === 0 && render(root).length > target) spot.parent[spot.key] = all.slice(0, Math.min(1, all.length - 1));
}

/** A path with list positions wildcarded: the strings of every item of a list share one. */
const shapeOf = (path: Path) => path.map((p) => (typeof p === 'number' ? '*' : p)).join('\u0000');

/**
 * Cuts the strings beside `spot` to one common length, the largest that fits, each at a window
 * boundary. "Beside" means under a parent of the same shape: a sheet's columns (sheet.content.*), or
 * one field of every item of a list (sheets[*].title, sheets[*].id). Only strings longer than that
 * length are cut, so no column is emptied while another keeps more than it, and short ids keep their
 * place while long titles are cut. When even emptying them all does not fit, they are all emptied and
 * the next round cuts elsewhere.
 */
function cutSiblings(root: unknown, spot: Spot, target: number, cuts: Cuts) {
  const shape = shapeOf(spot.path.slice(0, -1));
  const group = spots(root, 0).filter((sp) => typeof sp.parent[sp.key] === 'string' && shapeOf(sp.path.slice(0, -1)) === shape);
  const texts = group.map((sp) => Array.from(sp.parent[sp.key] as string));
  const capAt = (cap: number) =>
    group.forEach((sp, i) => {
      const cps = texts[i];
      const keep = cap >= cps.length ? cps.length : cap > 0 ? cutPoint(cps, 'html', 0, cap, cap) : 0;
      sp.parent[sp.key] = cps.slice(0, keep).join('');
    });
  // Strings of list items that would all have to go: fewer items, kept whole, say more than many empty ones.
  let listAt = spot.path.length - 1;
  while (listAt >= 0 && typeof spot.path[listAt] !== 'number') listAt--;
  if (listAt > 0 && !(capAt(0), render(root).length <= target)) {
    group.forEach((sp, i) => (sp.parent[sp.key] = texts[i].join('')));
    const listPath = spot.path.slice(0, listAt);
    const list = at(root, listPath) as unknown[];
    const holder = at(root, listPath.slice(0, -1)) as Holder;
    if (list.length > 1) return cutList(root, { parent: holder, key: listPath[listPath.length - 1], path: listPath, size: 0 }, target, cuts);
  }
  const longest = Math.max(...texts.map((t) => t.length));
  const cap = largestFitting(0, longest - 1, (c) => (capAt(c), render(root).length <= target));
  capAt(cap);
  group.forEach((sp, i) => {
    if (texts[i].length > cap) remember(cuts, sp, 'string', texts[i].length);
  });
}

/** A list is cut at an item boundary unless its first item alone takes half the room: then something inside is cut. */
const itemSized = (spot: Spot, target: number) => render((spot.parent[spot.key] as unknown[])[0]).length * 2 <= target;

/** One cut that makes the value smaller; false when nothing is left to cut. */
function cutOnce(root: unknown, target: number, cuts: Cuts): boolean {
  const isString = (sp: Spot) => typeof sp.parent[sp.key] === 'string';
  // Lists only when they are large too: a sheet's two tags are not cut before its columns.
  const spot = spots(root, LONG).find((sp) => isString(sp) || (sp.size > LONG && itemSized(sp, target)));
  if (spot && isString(spot)) return (cutSiblings(root, spot, target, cuts), true);
  if (spot) return (cutList(root, spot, target, cuts), true);
  for (const over of FALLBACK_LENGTHS) {
    const text = spots(root, over).find(isString);
    if (text) return (cutSiblings(root, text, target, cuts), true);
  }
  const list = spots(root, Infinity)[0];
  if (list) return (cutList(root, list, target, cuts), true);
  const last = spots(root, 0).find(isString);
  if (last) return (cutSiblings(root, last, target, cuts), true);
  return false;
}

/** Cuts until the value fits target; false when it cannot (nothing left to cut). */
function shrink(root: unknown, target: number, cuts: Cuts): boolean {
  // Every cut strictly shortens a string or a list (a list at most twice before it fits or is empty, a group
  // of strings once per length class), so this bound, a guard against a loop, is never reached.
  const rounds = 2 * spots(root, 0).length + 2 * FALLBACK_LENGTHS.length + 8;
  for (let round = 0; round < rounds; round++) {
    if (render(root).length <= target) return true;
    if (!cutOnce(root, target, cuts)) return false;
  }
  return render(root).length <= target;
}

function at(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Holder)[key];
  }
  return node;
}

interface Context {
  value: Record<string, unknown>;
  args: Record<string, unknown>;
  pages: boolean;
}

/** The first item offset of a top-level list in a paged answer, when it has one. */
const pageOffset = (ctx: Context) => (typeof ctx.args.offset === 'number' ? ctx.args.offset : 0);
const isPage = (ctx: Context, path: Path) => ctx.pages && path.length === 1 && ctx.args.summary_only !== true;

/** has_more and next of a cut list's owner say that more follows, and from where. */
function markOwners(root: unknown, cuts: Cuts, ctx: Context) {
  for (const { path, kind } of cuts.values()) {
    if (kind !== 'list') continue;
    const list = at(root, path);
    const owner = at(root, path.slice(0, -1));
    if (!Array.isArray(list) || !owner || typeof owner !== 'object' || Array.isArray(owner)) continue;
    const holder = owner as Holder;
    const key = path[path.length - 1];
    if (typeof holder.has_more === 'boolean') holder.has_more = true;
    const page = holder[`${key}_page`] as Holder | undefined;
    if (page && typeof page === 'object' && typeof page.has_more === 'boolean') page.has_more = true;
    if (isPage(ctx, path) && typeof holder.next === 'string') holder.next = nextAt(holder.next, pageOffset(ctx) + list.length);
  }
}

/** Lists that no tool pages, by name: how to get fewer of them (or that one cannot). */
const UNPAGED_LISTS: Record<string, string> = {
  todos: 'list_todos returns every match and cannot page: narrow it with status or project',
  solutions: 'search_knowledge cannot page: narrow the query (q, tag, type=solutions) or lower limit',
  snippets: 'search_knowledge cannot page: narrow the query (q, tag, type=snippets) or lower limit',
  sparks: 'list_sparks returns every Spark and cannot page or filter; get_spark reads one by id',
  webhooks: 'list_webhooks returns every webhook and cannot page or filter',
};

function listHow(path: Path, kept: number, ctx: Context): string {
  const id = typeof ctx.args.id === 'string' ? ctx.args.id : undefined;
  if (ctx.args.summary_only === true && path[0] === 'columns')
    return `the outline cannot be read in pieces; read a column itself with get_sheet_content {"id":"${id}","column":"<key>"} (window by window, or lines A-B around a heading)`;
  if (isPage(ctx, path)) return `call again with offset=${pageOffset(ctx) + kept} (or a smaller limit)`;
  const name = [...path].reverse().find((p) => typeof p === 'string');
  if (path.length === 1 && typeof name === 'string' && UNPAGED_LISTS[name]) return UNPAGED_LISTS[name];
  return 'limit' in ctx.args ? 'ask for fewer at a time (smaller limit, narrower query)' : '';
}

/** How to read the rest of the strings cut under one parent (e.g. a sheet's columns): of one column when named, else of any. */
function stringsHow(parent: Path, ctx: Context, offset: string, column?: string | number): string {
  const where = dotted(parent);
  const sheet = ctx.value.sheet as { id?: unknown } | undefined;
  const sheetId = typeof sheet?.id === 'string' ? sheet.id : typeof ctx.value.id === 'string' ? ctx.value.id : undefined;
  if (where === 'sheet.content' && sheetId)
    return column === undefined
      ? `read the rest of a column with get_sheet_content {"id":"${sheetId}","column":"<key>","format":"html","offset":${offset}}`
      : `read the rest with get_sheet_content {"id":"${sheetId}","column":${JSON.stringify(String(column))},"format":"html","offset":${offset}}`;
  const revision = ctx.value.revision as { version?: unknown } | undefined;
  if (where === 'revision.content' && typeof ctx.args.id === 'string' && typeof revision?.version === 'number')
    return (
      `this is revision ${revision.version} of sheet ${ctx.args.id}, which get_sheet_revision cannot read in pieces; ` +
      'restore_sheet_revision makes it current (the present version is kept as a revision), then get_sheet_content reads it window by window'
    );
  return '';
}

/** One part of the note, given how many per-item details it may list. */
type Part = (details: number) => string;
const listed = (items: string[], n: number) => (items.length <= n ? items.join(', ') : `${items.slice(0, n).join(', ')}${n ? ', ' : ''}…`);
const withHow = (text: string, how: string) => (how ? `${text}; ${how}` : text);

function noteParts(root: unknown, cuts: Cuts, ctx: Context): Part[] {
  const parts: Part[] = [];
  // Grouped by the shape of their parent: a sheet's columns together, one field of every list item together.
  const strings = new Map<string, { parent: Path; items: { key: string | number; label: string; kept: number; before: number }[] }>();
  for (const [id, { path, kind, before }] of cuts) {
    const now = at(root, path);
    if (kind === 'list' && Array.isArray(now)) {
      const how = listHow(path, now.length, ctx);
      parts.push(() => withHow(`${id}: ${before - now.length} of ${before} items left out to fit the size limit`, how));
    } else if (kind === 'string' && typeof now === 'string') {
      const parent = path.slice(0, -1);
      const group = strings.get(shapeOf(parent)) ?? { parent, items: [] };
      group.items.push({ key: path[path.length - 1], label: id, kept: codePoints(now), before });
      strings.set(shapeOf(parent), group);
    }
  }
  for (const { parent, items } of strings.values()) {
    if (items.length <= 3) {
      for (const { key, label, kept, before } of items) {
        const how = stringsHow(parent, ctx, String(kept), key);
        parts.push(() => withHow(`${label}: cut after ${kept} of ${before} characters to fit the size limit`, how));
      }
      continue;
    }
    const oneParent = items.every((i) => i.label === dotted([...parent, i.key]));
    const where = oneParent
      ? dotted(parent)
      : shapeOf(parent)
          .split('\u0000')
          .map((p) => (p === '*' ? '[*]' : `.${p}`))
          .join('')
          .replace(/^\./, '') + `.${items[0].key}`;
    const how = stringsHow(parent, ctx, '<characters received of that column>');
    const details = items.map(({ key, label, kept, before }) => `${oneParent ? key : label} after ${kept} of ${before}`);
    const noun = parent[parent.length - 1] === 'content' ? 'columns' : 'strings';
    parts.push((n) => withHow(`${where || 'result'}: ${items.length} ${noun} cut to fit the size limit, to at most ${Math.max(...items.map((i) => i.kept))} characters each (${listed(details, n)})`, how));
  }
  return parts;
}

/** The note, as complete as fits in room characters once written as JSON. */
function composeNote(budget: number, parts: Part[], room: number): string {
  const head = `Result cut to fit ${budget} characters.`;
  const fits = (s: string) => JSON.stringify(s).length - 2 <= room;
  for (const n of [Infinity, 10, 3, 0]) {
    const note = [head, parts.map((p) => p(n)).join('; ')].join(' ').trim();
    if (fits(note)) return note;
  }
  const full = Array.from([head, parts.map((p) => p(0)).join('; ')].join(' '));
  const keep = largestFitting(0, full.length, (n) => fits(`${full.slice(0, n).join('')}…`));
  return keep > 0 ? `${full.slice(0, keep).join('')}…` : '';
}

/** The value itself when it fits; else a cut copy with `truncated` set, never longer than budget when rendered. */
export function fitToBudget<T extends Record<string, unknown>>(value: T, budget: number, args: Record<string, unknown>, pages: boolean): T {
  if (render(value).length <= budget) return value;
  const root = structuredClone(value) as Record<string, unknown>;
  const ctx: Context = { value, args, pages };
  const cuts: Cuts = new Map();
  let target = Math.max(0, budget - Math.min(NOTE_ROOM, Math.floor(budget / 4)));
  for (;;) {
    delete root.truncated;
    const cutEnough = shrink(root, target, cuts);
    markOwners(root, cuts, ctx);
    root.truncated = '';
    const room = budget - render(root).length;
    const note = composeNote(budget, noteParts(root, cuts, ctx), Math.max(0, room));
    if (room >= NOTE_MIN || !cutEnough || target === 0) {
      root.truncated = note;
      return root as T;
    }
    target = Math.max(0, target - (NOTE_MIN - room));
  }
}
