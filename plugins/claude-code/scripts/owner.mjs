// Whose a kept request is: the service URL and a fingerprint of the API key it was captured under. The sender sends a
// request only with that same URL and key, so an event captured in one project under one key never reaches the service
// under another (a team-restricted key of another project would put it in the team's workspace).
import crypto from 'node:crypto';

/**
 * The first 32 hex digits of sha256("sheet-workspace-spool:" + key): tells keys apart, never gives the key back, and
 * (with its prefix) matches no hash the service stores. hooks/capture.sh computes the same with sha256sum.
 */
export const keyFingerprint = (key) => crypto.createHash('sha256').update(`sheet-workspace-spool:${key}`).digest('hex').slice(0, 32);

/** The owner of what a hook with this configuration keeps: { url, key } (key: the fingerprint). */
export const ownerOf = (cfg) => ({ url: cfg.url, key: keyFingerprint(cfg.apiKey) });

export const sameOwner = (a, b) => Boolean(a && b && typeof a.url === 'string' && typeof a.key === 'string' && a.url === b.url && a.key === b.key);
