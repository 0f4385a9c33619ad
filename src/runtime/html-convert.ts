import { availableParallelism } from 'node:os';
import { AppError } from '../errors.js';
import { convertInPlace, type HtmlConversion } from '../lib/html-convert-kinds.js';
import { HTML_TIME_BUDGET_DEFAULT_MS } from './html-text-pool.js';
import { nextTurn } from '../lib/next-turn.js';
import { idleWorkerPool } from './worker-pool.js';

export type { HtmlConversion } from '../lib/html-convert-kinds.js';

/**
 * Reads of stored columns as Markdown, text or sanitized HTML. A column of up to IN_PLACE_MAX_CHARS is
 * converted on the event loop (Markdown, the costliest, takes a few ms per 1,000 characters); a longer
 * one in a worker thread, stopped when it runs past HTML_TIME_BUDGET_MS: a 500 KB column took
 * 0.5-2.5 s of Markdown conversion, which held every other request of the process meanwhile.
 */
export const IN_PLACE_MAX_CHARS = 8 * 1024;
const budgetMs = () => Number(process.env.HTML_TIME_BUDGET_MS) || HTML_TIME_BUDGET_DEFAULT_MS;
/** A DOM of a 500 KB column plus Turndown's strings fit well below this; a runaway one ends its thread, not the process. */
const CONVERT_WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 384 };

const workers = idleWorkerPool(new URL('./html-convert.worker', import.meta.url), {
  maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
  resourceLimits: CONVERT_WORKER_LIMITS,
}).open;

const FORM: Record<HtmlConversion, string> = { markdown: 'Markdown', text: 'text', sanitized: 'sanitized HTML' };

/** `html` in the form `kind`; `what` names it in the 400 when it is too costly to convert ("column col1"). */
export async function convertHtml(kind: HtmlConversion, html: string, what: string): Promise<string> {
  if (html.length <= IN_PLACE_MAX_CHARS) {
    // One turn per column, so a sheet of many small columns does not hold the loop for all of them at once.
    await nextTurn();
    return convertInPlace(kind, html);
  }
  const budget = budgetMs();
  try {
    return (await (await workers()).run({ kind, html }, { signal: AbortSignal.timeout(budget) })) as string;
  } catch (err) {
    const e = err as { code?: string; name?: string };
    const tooComplex = (cause: string) => new AppError('invalid_request', `${what} is too complex to convert to ${FORM[kind]}: ${cause}; read it as stored HTML instead`);
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') throw tooComplex(`it needed more than ${CONVERT_WORKER_LIMITS.maxOldGenerationSizeMb} MB`);
    if (e?.name === 'AbortError' || e?.name === 'TimeoutError') throw tooComplex(`it took longer than ${budget} ms`);
    throw err;
  }
}
