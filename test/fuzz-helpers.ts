import fc from 'fast-check';

/**
 * Generated bad input shared by the REST and MCP fuzz tests (rest-fuzz, mcp-fuzz, unknown-input): the
 * JSON Schema of an operation or tool says what a field is, these say what is valid and what is not.
 */
export type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  pattern?: string;
  minLength?: number;
};

/** The one type a field takes ('enum' for enums and constants), ignoring null in a nullable union. */
export const typeOf = (p: Schema): string => {
  if (p.enum || p.const !== undefined) return 'enum';
  const t = Array.isArray(p.type) ? p.type.find((x) => x !== 'null') : p.type;
  if (t) return t;
  const alt = (p.anyOf ?? p.oneOf)?.find((x) => x.type !== 'null');
  return alt ? typeOf(alt) : 'unknown';
};

/**
 * A value that should pass, so a call fails only on the field under test. With `name`, ids and URLs
 * get values shaped like them.
 */
export function validValue(p: Schema, name?: string): unknown {
  if (p.enum) return p.enum[0];
  if (p.const !== undefined) return p.const;
  const t = typeOf(p);
  if (t === 'string' && name && /_id$|^id$/.test(name)) return 'zz_00000000000000000000000000';
  if (t === 'string' && name && /url/.test(name)) return 'https://example.com/hook';
  return { string: 'fuzz', integer: Math.max(1, p.minimum ?? 1), number: Math.max(1, p.minimum ?? 1), boolean: true, array: [], object: {} }[t] ?? 'fuzz';
}

/** Values of the wrong type for the field. */
export function wrongTypes(p: Schema): unknown[] {
  switch (typeOf(p)) {
    case 'string':
    case 'enum':
      return [12345, { nested: true }, ['a']];
    case 'integer':
    case 'number':
      return ['not a number', { n: 1 }, 1.5e308 * 10];
    case 'boolean':
      return ['maybe', 7];
    case 'array':
      return ['not an array', { 0: 'a' }, [{ deep: [[[null]]] }]];
    case 'object':
      return ['not an object', 42, ['x']];
    default:
      return [];
  }
}

/** `depth` levels of objects in arrays around `leaf`. */
export function deepJunk(depth: number, leaf: unknown = 'leaf'): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = { a: [v, 1, null] };
  return v;
}

export const NUL = 'bad\u0000text';
export const LONE = 'bad\ud800text';
export const HUGE = 'x'.repeat(300_000);
/** HTML nested far past the stored limit (src/lib/html-text.ts HTML_MAX_DEPTH): 19,000 levels overflowed the Markdown conversion. */
export const DEEP_HTML = '<blockquote>'.repeat(5_000) + 'x' + '</blockquote>'.repeat(5_000);

/** A field or argument name the API does not declare (`known` are the ones it does). */
export const undeclaredKey = (known: Set<string>) => fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k) && !k.includes('\u0000') && k !== '__proto__');
