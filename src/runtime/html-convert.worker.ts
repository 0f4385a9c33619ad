import { lowerThreadPriority } from './background-thread.js';
import { convertInPlace, type HtmlConversion } from '../lib/html-convert-kinds.js';
import { IDLE_COLLECT_MS, startIdleCollector } from './idle-gc.js';

lowerThreadPriority();
const idle = startIdleCollector({ idleMs: IDLE_COLLECT_MS });

/** Piscina task (src/runtime/html-convert.ts): one column converted off the event loop. */
export default function task({ kind, html }: { kind: HtmlConversion; html: string }): string {
  idle.touch();
  return convertInPlace(kind, html);
}
