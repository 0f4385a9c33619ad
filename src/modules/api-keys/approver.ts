/** The state of the API key that approved an OAuth grant (left-joined; null columns when there is none). */
export interface Approver {
  approved_by_key: string | null;
  key_id: string | null;
  key_status: string | null;
  key_expires_at: string | null;
}

/**
 * Why the key that approved a grant no longer vouches for it; undefined while it does, or for grants
 * older than migration 016 (none recorded). Grants, their tokens and the keys made under them end with it.
 */
export function approverEnded(r: Approver, now: Date): string | undefined {
  if (!r.approved_by_key) return undefined;
  if (!r.key_id) return 'The API key that approved this access no longer exists';
  if (r.key_status !== 'active') return 'The API key that approved this access has been disabled';
  if (r.key_expires_at && Date.parse(r.key_expires_at) <= now.getTime()) return 'The API key that approved this access has expired';
  return undefined;
}
