import { availableParallelism } from 'node:os';
import { AppError } from '../errors.js';
import { readHtml } from '../lib/html-text.js';
import { idleWorkerPool } from './worker-pool.js';

/**
 * HTML -> text is linear (src/lib/html-parser.ts) but a 1 MB column of tags
 * still costs 100-300 ms of CPU, which would stall every other request. Big
 * columns are read in a worker thread before the write's transaction starts;
 * the transaction then takes the finished text instead of parsing again.
 * Small columns (nearly all) are parsed in place: a worker round trip costs
 * more than they do.
 */
export const OFF_THREAD_MIN_CHARS = 32 * 1024;
/** A column whose text takes longer than this (HTML_TIME_BUDGET_MS, read per call) is refused with 400. */
export const HTML_TIME_BUDGET_DEFAULT_MS = 10_000;
const budgetMs = () => Number(process.env.HTML_TIME_BUDGET_MS) || HTML_TIME_BUDGET_DEFAULT_MS;
/** Texts waiting for their write; a write that turns out to change nothing leaves its own behind. */
const KEEP_MAX = 16;

/**
 * A worker's V8 heap stays in the process's RSS until the thread exits. With Node's default young
 * generation (tens of MB) a thread that parsed a few 1 MB bodies kept ~70 MB; 8 MB is plenty for
 * one column's parse (the live data is the column and its text). The old generation is capped well
 * above what a 500,000-character column needs, so a runaway parse ends the thread (a 400 naming the cause), not the process.
 */
const HTML_WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 };

/** Texts (and nesting depths) computed off the loop, by HTML string, with how many takes are still to come (equal columns share one). */
const ready = new Map<string, { text: string; depth: number; uses: number }>();
const workers = idleWorkerPool(new URL('./html-text.worker', import.meta.url), {
  maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
  resourceLimits: HTML_WORKER_LIMITS,
}).open;

/** Reads the big HTML strings among `htmls` in a worker, so `preparedHtmlToText` finds them done. */
export async function prepareHtmlTexts(htmls: Iterable<string | null | undefined>): Promise<void> {
  const wanted = new Map<string, number>();
  for (const h of htmls) if (typeof h === 'string' && h.length >= OFF_THREAD_MIN_CHARS) wanted.set(h, (wanted.get(h) ?? 0) + 1);
  if (wanted.size === 0) return;
  const budget = budgetMs();
  await Promise.all(
    [...wanted].map(async ([html, uses]) => {
      const known = ready.get(html);
      if (known) return void (known.uses += uses);
      const result = (await (await workers()).run({ html, budgetMs: budget }).catch((err: { code?: string }) => {
        if (err?.code !== 'ERR_WORKER_OUT_OF_MEMORY') throw err;
        throw new AppError('invalid_request', `HTML content too complex: reading it needed more than ${HTML_WORKER_LIMITS.maxOldGenerationSizeMb} MB; send simpler HTML`);
      })) as { text: string; depth: number } | { tooSlow: true };
      if (!('text' in result)) {
        throw new AppError('invalid_request', `HTML content too complex: reading it took longer than ${budget} ms; send simpler HTML`);
      }
      const again = ready.get(html);
      if (again) again.uses += uses;
      else keepAtMost(ready, KEEP_MAX, html, { text: result.text, depth: result.depth, uses });
    }),
  );
}

/** Sets `key` in `map`, dropping the oldest entry past `max`. */
function keepAtMost<V>(map: Map<string, V>, max: number, key: string, value: V): void {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/**
 * Small columns read in place for their depth, keeping the text for the write's search text: a write
 * checks every column's nesting and then builds its search text, and parsing each column twice was
 * 8 % of a POST's CPU. Taken once; a write that is refused in between leaves its entries to be pushed out.
 * Apart from `ready`, so a write with many small columns never pushes out a big column read off the loop.
 */
const readInPlace = new Map<string, string>();
const READ_IN_PLACE_MAX = 32;

/** htmlDepth, taking the depth prepared off the loop when there is one (without using up the prepared text). */
export function preparedHtmlDepth(html: string): number {
  const prepared = ready.get(html);
  if (prepared) return prepared.depth;
  const { text, depth } = readHtml(html);
  if (html.length < OFF_THREAD_MIN_CHARS) keepAtMost(readInPlace, READ_IN_PLACE_MAX, html, text);
  return depth;
}

/** htmlToText, taking a text prepared off the loop, or read in place for its depth, when there is one. */
export function preparedHtmlToText(html: string): string {
  const entry = ready.get(html);
  if (!entry) {
    const text = readInPlace.get(html);
    if (text === undefined) return readHtml(html).text;
    readInPlace.delete(html);
    return text;
  }
  if (--entry.uses <= 0) ready.delete(html);
  return entry.text;
}
