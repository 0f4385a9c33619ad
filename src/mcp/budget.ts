import { z } from 'zod';
import { cutPoint } from '../modules/sheets/sheets.window.js';

/**
 * MCP_RESULT_MAX_CHARS: no tool result's text (or structuredContent, which is the same value more
 * compactly written) is longer. A larger result is cut, not refused: list items are dropped from the
 * end of the largest list, then the longest strings are cut at a window boundary (src/modules/sheets/
 * sheets.window.ts), and `truncated` says what was left out and how to read it. Every cut keeps the
 * value's shape, so structuredContent still matches the tool's output schema.
 */

export const DEFAULT_RESULT_MAX_CHARS = 25_000;

/** Declared (optional) on every tool's output schema by ToolRegistry.define. */
export const TruncatedField = z
  .string()
  .describe('Present only when the result was cut to fit the result size limit (MCP_RESULT_MAX_CHARS): what was left out and how to read it.');

/** Room kept for the note itself. */
const NOTE_ROOM = 1200;
const render = (v: unknown) => JSON.stringify(v, null, 2);

type Container = Record<string, unknown> | unknown[];
interface Spot {
  parent: Container;
  key: string | number;
  path: (string | number)[];
  size: number;
}

/** Every array and every longer string in the value, largest first. */
function spots(value: unknown): Spot[] {
  const out: Spot[] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (Array.isArray(node)) node.forEach((child, i) => visit(node, i, child, [...path, i]));
    else if (node && typeof node === 'object') for (const [k, child] of Object.entries(node)) visit(node as Record<string, unknown>, k, child, [...path, k]);
  };
  const visit = (parent: Container, key: string | number, child: unknown, path: (string | number)[]) => {
    if ((Array.isArray(child) && child.length > 0) || (typeof child === 'string' && child.length > 80)) {
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

const dotted = (path: (string | number)[]) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');

function cutList(root: Record<string, unknown>, spot: Spot, target: number, args: Record<string, unknown>, pages: boolean): string {
  const list = (spot.parent as Record<string | number, unknown>)[spot.key] as unknown[];
  const all = list.slice();
  const keep = largestFitting(0, all.length - 1, (n) => {
    (spot.parent as Record<string | number, unknown>)[spot.key] = all.slice(0, n);
    return render(root).length <= target;
  });
  (spot.parent as Record<string | number, unknown>)[spot.key] = all.slice(0, keep);
  const owner = spot.parent as Record<string, unknown>;
  if (!Array.isArray(owner) && typeof owner.has_more === 'boolean') owner.has_more = true;
  const next = (typeof args.offset === 'number' ? args.offset : 0) + keep;
  const how = pages ? `call again with offset=${next} (or a smaller limit)` : 'ask for fewer at a time (smaller limit, narrower query)';
  return `${dotted(spot.path)}: ${all.length - keep} of ${all.length} items left out to fit the size limit; ${how}`;
}

function cutString(root: Record<string, unknown>, spot: Spot, target: number): string {
  const cps = Array.from((spot.parent as Record<string | number, string>)[spot.key]);
  const set = (n: number) => ((spot.parent as Record<string | number, unknown>)[spot.key] = cps.slice(0, n).join(''));
  let keep = largestFitting(0, cps.length - 1, (n) => {
    set(n);
    return render(root).length <= target;
  });
  if (keep > 0) keep = cutPoint(cps, 'html', 0, keep, keep);
  set(keep);
  const path = dotted(spot.path);
  const column = /(?:^|\.)content\.(col\d+)$/.exec(path);
  const id = (root as { sheet?: { id?: string } }).sheet?.id ?? (root as { id?: string }).id;
  const how =
    column && id
      ? `; read the rest with get_sheet_content {"id":"${id}","column":"${column[1]}","format":"html","offset":${keep}}`
      : '';
  return `${path}: cut after ${keep} of ${cps.length} characters to fit the size limit${how}`;
}

function fitsWithFirst(root: Record<string, unknown>, spot: Spot, target: number): boolean {
  const holder = spot.parent as Record<string | number, unknown>;
  const list = holder[spot.key] as unknown[];
  holder[spot.key] = list.slice(0, 1);
  const fits = render(root).length <= target;
  holder[spot.key] = list;
  return fits;
}

/** The value itself when it fits; else a cut copy with `truncated` set. */
export function fitToBudget<T extends Record<string, unknown>>(value: T, budget: number, args: Record<string, unknown>, pages: boolean): T {
  if (render(value).length <= budget) return value;
  const root = structuredClone(value) as Record<string, unknown>;
  const target = Math.max(0, budget - NOTE_ROOM);
  const notes: string[] = [];
  for (let round = 0; round < 50 && render(root).length > target; round++) {
    // A list whose first item alone is too large is not emptied: something inside that item is cut instead.
    const all = spots(root);
    const spot =
      all.find((sp) => {
        const node = (sp.parent as Record<string | number, unknown>)[sp.key];
        return !Array.isArray(node) || fitsWithFirst(root, sp, target);
      }) ?? all[0];
    if (!spot) break;
    const node = (spot.parent as Record<string | number, unknown>)[spot.key];
    notes.push(Array.isArray(node) ? cutList(root, spot, target, args, pages && spot.path.length === 1) : cutString(root, spot, target));
  }
  let note = notes.join('; ');
  if (note.length > NOTE_ROOM - 100) note = `${note.slice(0, NOTE_ROOM - 120)}…`;
  root.truncated = `Result cut to fit ${budget} characters. ${note}`;
  return root as T;
}
