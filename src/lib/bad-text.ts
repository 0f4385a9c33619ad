/**
 * Text the service refuses: NUL (PostgreSQL text cannot hold it, and it truncates C strings downstream)
 * and lone UTF-16 surrogates (not Unicode at all; JSON.parse of "\ud800" yields one, and every UTF-8
 * encoder on the way to the database silently turns it into U+FFFD). Everything else that is valid
 * Unicode (bidi controls, ZWJ sequences, astral characters, combining marks, BOM, U+2028) is kept as is.
 */
export interface BadText {
  /** Dotted path of the field, e.g. `content.main` or `todos.0.content`; empty for the value itself. */
  path: string;
  /** What is wrong, for the message: `a NUL character (U+0000)` or `a lone surrogate (U+D800)`. */
  problem: string;
  /** True when the bad text is in an object key, not in a value. */
  inKey: boolean;
}

// With the u flag a surrogate range matches only unpaired surrogates: a valid pair is one code point.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function problemOf(s: string): string | undefined {
  if (s.includes('\u0000')) return 'a NUL character (U+0000)';
  const lone = LONE_SURROGATE.exec(s);
  if (lone) return `a lone surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()})`;
  return undefined;
}

/**
 * The first bad string in a parsed JSON value, in document order, or undefined. Iterative, so a deeply
 * nested body cannot overflow the stack.
 */
export function findBadText(value: unknown): BadText | undefined {
  // Each entry links to its parent's path instead of copying it, so deep nesting stays linear.
  type Path = { key: string; parent: Path } | null;
  const join = (p: Path) => {
    const parts: string[] = [];
    for (let q = p; q; q = q.parent) parts.push(q.key);
    return parts.reverse().join('.');
  };
  const stack: { v: unknown; path: Path }[] = [{ v: value, path: null }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return { path: join(path), problem, inKey: false };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: { key: String(i), parent: path } });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (const k of keys) {
        const problem = problemOf(k);
        if (problem) return { path: join(path), problem, inKey: true };
      }
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: (v as Record<string, unknown>)[keys[i]], path: { key: keys[i], parent: path } });
    }
  }
  return undefined;
}

/** `where`: "field", "query parameter" or "path parameter", as in the other validation messages. */
export function describeBadText(found: BadText, where = 'field'): string {
  // A path through nested junk can be long; its start names the argument.
  const bad = found.path.length > 100 ? { ...found, path: `${found.path.slice(0, 100)}...` } : found;
  const rule = 'text must be valid Unicode without NUL';
  if (bad.inKey) return `${bad.path ? `${where} '${bad.path}' has a key that contains` : 'A field name contains'} ${bad.problem}; ${rule}`;
  if (!bad.path) return `The request contains ${bad.problem}; ${rule}`;
  return `${where} '${bad.path}' contains ${bad.problem}; ${rule}`;
}
