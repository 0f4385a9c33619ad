/** A LIKE pattern (with `escape '\'`) matching any text that contains `s`: its wildcards and backslashes escaped. */
export function likePattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
