import type { z } from 'zod';

/**
 * Stripe's rule: a field the API does not know is an error, not silently dropped. zod objects strip
 * unknown keys, so `{"contents": ...}` made an empty sheet; this walks the value beside its schema and
 * names the first key no schema declares, with the closest known name when one is near.
 */
export interface UnknownKey {
  /** Dotted path of the unknown key, e.g. `todos.0.stauts`. */
  path: string;
  key: string;
  suggestion?: string;
}

type Def = { type: string; [k: string]: unknown };
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } })?._zod?.def;

/** Wrappers whose inner schema describes the same value. */
const INNER: Record<string, string> = {
  optional: 'innerType',
  nullable: 'innerType',
  default: 'innerType',
  prefault: 'innerType',
  nonoptional: 'innerType',
  readonly: 'innerType',
  catch: 'innerType',
  success: 'innerType',
  pipe: 'in',
};

function unwrap(schema: unknown): Def | undefined {
  let def = defOf(schema);
  for (let i = 0; def && i < 32; i++) {
    if (def.type === 'lazy') def = defOf((def.getter as () => unknown)());
    else if (INNER[def.type]) def = defOf(def[INNER[def.type]!]);
    else break;
  }
  return def;
}

/** The object schemas a value may match (several for a union); undefined when any key is allowed. */
function objectShapes(def: Def): Record<string, unknown>[] | undefined {
  if (def.type === 'object') {
    const catchall = defOf(def.catchall);
    // A loose object (catchall unknown/any) takes every key; a strict one (never) is checked by zod itself.
    if (catchall && catchall.type !== 'never') return undefined;
    return [def.shape as Record<string, unknown>];
  }
  if (def.type === 'union') {
    const shapes: Record<string, unknown>[] = [];
    for (const option of def.options as unknown[]) {
      const inner = unwrap(option);
      if (!inner) return undefined;
      if (inner.type !== 'object' && inner.type !== 'union' && inner.type !== 'intersection') continue;
      const more = objectShapes(inner);
      if (!more) return undefined;
      shapes.push(...more);
    }
    return shapes;
  }
  if (def.type === 'intersection') {
    const left = unwrap(def.left);
    const right = unwrap(def.right);
    const a = left && objectShapes(left);
    const b = right && objectShapes(right);
    return a && b ? [...a, ...b] : undefined;
  }
  return undefined;
}

export function findUnknownKey(schema: z.ZodType | undefined, value: unknown, path: string[] = []): UnknownKey | undefined {
  const def = unwrap(schema);
  if (!def || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    if (def.type !== 'array') return undefined;
    for (let i = 0; i < value.length; i++) {
      const found = findUnknownKey(def.element as z.ZodType, value[i], [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (def.type === 'record') {
    for (const [k, v] of Object.entries(value)) {
      const found = findUnknownKey(def.valueType as z.ZodType, v, [...path, k]);
      if (found) return found;
    }
    return undefined;
  }
  const shapes = objectShapes(def);
  if (!shapes) return undefined;
  const known = new Set(shapes.flatMap((s) => Object.keys(s)));
  for (const [k, v] of Object.entries(value)) {
    if (!known.has(k)) return { path: [...path, k].join('.'), key: k, suggestion: closest(k, [...known]) };
    // With a union, the first option declaring the key describes its value.
    const inner = shapes.find((s) => k in s)![k] as z.ZodType;
    const found = findUnknownKey(inner, v, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

/** "did you mean": a small edit distance, or one name the abbreviation of the other (`query` -> `q`). */
export function closest(name: string, candidates: string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const c of candidates) {
    const cl = c.toLowerCase();
    let score = editDistance(lower, cl);
    const limit = Math.max(1, Math.min(3, Math.floor(Math.max(lower.length, cl.length) / 3)));
    if (score > limit) {
      const prefix = cl.length >= 1 && (lower.startsWith(cl) || cl.startsWith(lower));
      const sameStem = lower.split('_')[0] === cl.split('_')[0] && lower.split('_')[0]!.length >= 4;
      if (!prefix && !sameStem) continue;
      score = limit + 1 + Math.abs(lower.length - cl.length) / 100;
    }
    if (!best || score < best.score) best = { name: c, score };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** `unknown field 'contents' (did you mean 'content'?)` */
export function describeUnknownKey(found: UnknownKey, where: 'field' | 'query parameter' | 'argument'): string {
  const hint = found.suggestion ? ` (did you mean '${found.suggestion}'?)` : '';
  return `unknown ${where} '${found.path}'${hint}`;
}
