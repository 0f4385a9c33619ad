import type { Row } from './report.js';

export async function benchWebhooks(o: { base: string; auth: Record<string, string>; durationS: number; log: (s: string) => void; notes: string[] }): Promise<Row[]> {
  o.notes.push('Webhooks: not measured yet.');
  return [];
}
