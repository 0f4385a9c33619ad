import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer-style secrets (API keys, invitation, share, export and console tokens): 32 random bytes,
 * base64url, with an optional prefix that says what the token is. Only their sha256 is stored.
 */
export const newSecretToken = (prefix?: string) => {
  const token = randomBytes(32).toString('base64url');
  return prefix ? `${prefix}_${token}` : token;
};

/** How a secret token is stored and looked up: sha256, hex. */
export const hashSecretToken = (token: string) => createHash('sha256').update(token).digest('hex');
