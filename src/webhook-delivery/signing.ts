import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=` + lowercase hex HMAC-SHA-256 of the exact body bytes, keyed by the full `whsec_...` string (spec, Authentication 7). */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Constant-time check of a received signature header; what docs/webhooks.md tells receivers to do. */
export function verifySignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
}
