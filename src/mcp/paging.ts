import { z } from 'zod';

/**
 * REST's query strings carry numbers and booleans as text; tool arguments are typed JSON. Every way a
 * value can be wrong (a string, 1.5, -1, more than queryInt's 9 digits) gets REST's one message.
 */
const mcpInt = (name: string) => {
  const error = `${name} must be a non-negative integer`;
  return z.number({ error }).int({ error }).min(0, { error }).max(999_999_999, { error }).optional();
};
export const McpPage = { limit: mcpInt('limit'), offset: mcpInt('offset') };

/** `has_more` for an offset page, so a list never truncates silently. */
export const hasMore = (total: number, offset: number | undefined, returned: number) => (offset ?? 0) + returned < total;

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
