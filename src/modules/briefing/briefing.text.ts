/**
 * Cutting the briefing's text to a budget. Pure functions: everything the briefing shows passes through
 * here, so the text can never grow past what it was given, however much is stored.
 */

/** A string of at most `max` UTF-16 units, never ending inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** At most `max` characters, ending at a line break when one lies in the last fifth. */
export function cutAtLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const nl = text.lastIndexOf('\n', max);
  return nl >= max * 0.8 ? text.slice(0, nl).trimEnd() : clip(text, max).trimEnd();
}
