import type { Candidate } from './search.engine.js';
import { tokens } from './search.tokenize.js';

/**
 * The service's part of the ranking, over the database's best matches (relevance from BM25 or its
 * PostgreSQL counterpart):
 * - recency counts a little: up to RECENCY more for the newest match, halving every HALF_LIFE_DAYS
 *   before it (measured from the newest match, not from today, so an old corpus ranks the same);
 * - superseded: of two matches of the same kind and project whose titles share most words, the older
 *   one loses SUPERSEDED of its score (an updated fact ranks below the newer one);
 * - prefer_project: a match in that project gains PREFER; a match whose project the query names
 *   ("... in billing") gains MENTIONED.
 */
export const RECENCY = 0.2;
export const HALF_LIFE_DAYS = 30;
export const SUPERSEDED = 0.25;
export const PREFER = 0.5;
export const MENTIONED = 0.3;
const DAY = 86_400_000;

export interface Ranked extends Candidate {
  score: number;
}

const titleWords = (title: string) => new Set(tokens(title).map((t) => t.term));

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / Math.min(a.size, b.size);
}

export function rerank(candidates: Candidate[], preferProject?: string, queryTerms: string[] = []): Ranked[] {
  if (candidates.length === 0) return [];
  const times = candidates.map((c) => Date.parse(c.updated_at) || 0);
  const newest = Math.max(...times);
  const prefer = preferProject?.toLowerCase();
  const asked = new Set(queryTerms);
  const named = new Map<string, boolean>();
  const isNamed = (project: string) => {
    let hit = named.get(project);
    if (hit === undefined) {
      const words = tokens(project).map((t) => t.term);
      named.set(project, (hit = words.length > 0 && words.every((w) => asked.has(w))));
    }
    return hit;
  };
  const scored = candidates.map((c, i) => {
    const ageDays = (newest - times[i]) / DAY;
    let score = c.rel * (1 + RECENCY * 0.5 ** (ageDays / HALF_LIFE_DAYS));
    if (prefer !== undefined && c.project?.toLowerCase() === prefer) score *= 1 + PREFER;
    if (c.project && isNamed(c.project)) score *= 1 + MENTIONED;
    return { ...c, score, time: times[i] };
  });
  // Superseded: compare each of the best matches with the newer ones of its kind and project.
  const top = scored.slice(0, 60);
  const words = top.map((c) => titleWords(c.title));
  for (let i = 0; i < top.length; i++) {
    for (let j = 0; j < top.length; j++) {
      const a = top[i];
      const b = top[j];
      if (i === j || a.kind !== b.kind || a.project !== b.project || b.time <= a.time) continue;
      if (words[i].size >= 2 && overlap(words[i], words[j]) >= 0.6) {
        a.score *= 1 - SUPERSEDED;
        break;
      }
    }
  }
  return scored.sort((a, b) => b.score - a.score || b.time - a.time || a.record_id.localeCompare(b.record_id)).map(({ time: _time, ...c }) => c);
}
