import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { AppError } from '../errors.js';
import { htmlToText } from './html-text.js';

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

/** Texts computed off the loop, by HTML string, until a write takes them. */
const ready = new Map<string, string>();
let pool: Promise<Piscina> | undefined;

function workers(): Promise<Piscina> {
  pool ??= import('piscina').then(({ Piscina }) => {
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    return new Piscina({
      filename: new URL(`./html-text.worker${ext}`, import.meta.url).href,
      minThreads: 0,
      maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
      idleTimeout: 30_000,
    });
  });
  return pool;
}

/** Reads the big HTML strings among `htmls` in a worker, so `preparedHtmlToText` finds them done. */
export async function prepareHtmlTexts(htmls: Iterable<string | null | undefined>): Promise<void> {
  const big = [...htmls].filter((h): h is string => typeof h === 'string' && h.length >= OFF_THREAD_MIN_CHARS && !ready.has(h));
  if (big.length === 0) return;
  const run = await workers();
  const budget = budgetMs();
  await Promise.all(
    big.map(async (html) => {
      const result = (await run.run({ html, budgetMs: budget })) as { text: string } | { tooSlow: true };
      if (!('text' in result)) {
        throw new AppError('invalid_request', `HTML content too complex: reading it took longer than ${budget} ms; send simpler HTML`);
      }
      const text = result.text;
      ready.set(html, text);
      if (ready.size > KEEP_MAX) ready.delete(ready.keys().next().value!);
    }),
  );
}

/** htmlToText, taking a text prepared off the loop when there is one. */
export function preparedHtmlToText(html: string): string {
  const text = ready.get(html);
  if (text === undefined) return htmlToText(html);
  ready.delete(html);
  return text;
}
