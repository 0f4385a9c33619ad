import { HtmlTooSlowError, readHtml } from '../lib/html-text.js';
import { lowerThreadPriority } from './background-thread.js';
import { IDLE_COLLECT_MS, startIdleCollector } from './idle-gc.js';

lowerThreadPriority();
const idle = startIdleCollector({ idleMs: IDLE_COLLECT_MS });

/**
 * Piscina task (src/runtime/html-text-pool.ts): the visible text of one HTML string, off the event loop.
 * The budget counts from when the worker starts on it, not from when it was queued.
 */
export default function task({ html, budgetMs }: { html: string; budgetMs: number }): { text: string; depth: number } | { tooSlow: true } {
  idle.touch();
  try {
    return readHtml(html, performance.now() + budgetMs);
  } catch (err) {
    if (err instanceof HtmlTooSlowError) return { tooSlow: true };
    throw err;
  }
}
