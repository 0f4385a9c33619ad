import { z } from 'zod';

/**
 * `fields=` on list routes: a comma-separated subset of a record's fields, so a reader takes only what it
 * needs. `id` is always included; an unknown name is a 400 naming it.
 */
export function fieldsQuery(known: readonly string[]) {
  return z
    .string()
    .max(500)
    .transform((value, ctx) => {
      const names = [
        ...new Set(
          value
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s.length > 0),
        ),
      ];
      // snippet is not a record field but comes with q anyway; naming it is harmless.
      const unknown = names.find((n) => !known.includes(n) && n !== 'snippet');
      if (unknown !== undefined) {
        ctx.addIssue({ code: 'custom', message: `unknown field '${unknown}'; fields are: ${known.join(', ')}` });
        return z.NEVER;
      }
      return names;
    })
    .describe(`Comma-separated fields to return for each item (id is always included): ${known.join(', ')}.`);
}

/** The item with only the chosen fields (and id); the whole item when no fields were chosen. */
export function pickFields<T extends { id: string }>(item: T, fields: readonly string[] | undefined): Partial<T> & { id: string } {
  if (!fields) return item;
  const out: Record<string, unknown> = { id: item.id };
  for (const f of fields) if (f in item) out[f] = (item as Record<string, unknown>)[f];
  return out as Partial<T> & { id: string };
}

/** `snippet` on search results (src/modules/search/substring/list-snippet.ts). */
export const SnippetField = z.string().describe('Only with q: up to 240 characters of plain text around the best match, matched words wrapped in <mark>, everything else HTML-escaped.');
