import { z } from 'zod';
import { hasMore } from './tool.js';

/** A list tool's answer says whether more follows and, if so, the exact call that reads it. */
export const NextPage = z.string().optional().describe('Present when more items follow: the call that reads the next page.');

export function paged(tool: string, total: number, offset: number | undefined, returned: number): { has_more: boolean; next?: string } {
  const more = hasMore(total, offset, returned);
  return more ? { has_more: true, next: `More: call ${tool} with offset=${(offset ?? 0) + returned} (same other arguments); ${total} in all.` } : { has_more: false };
}

/** A `next` written by paged(), pointing at another offset (when the page was cut shorter after it was made). */
export function nextAt(next: string, offset: number): string {
  return next.replace(/offset=\d+/, `offset=${offset}`);
}
