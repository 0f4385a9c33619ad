import type { UsersTable } from '../db/types.js';

/** The kinds of credential a request may carry; sheet revisions name their writer by it. */
export const CREDENTIAL_KINDS = ['api_key', 'console', 'oauth_client'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** Who is writing, as sheet revisions name it: the key, the console session's key, or the OAuth client. */
export interface Actor {
  type: CredentialKind;
  id: string | null;
  name: string | null;
}

/** Who is calling: the account and what its credential may do. REST, MCP and the services share it. */
export interface AuthContext {
  userId: string;
  plan: UsersTable['plan'];
  keyId: string;
  /** What this credential may do (src/auth/scopes.ts); absent or ["*"]: everything. */
  scopes?: readonly string[];
  /** Who is writing, as sheet revisions name it (every credential sets it when it authenticates). */
  actor: Actor;
  /** When this credential stops working (ISO 8601); absent: never. Keys it creates expire no later. */
  expiresAt?: string;
  /** A key restricted to one workspace (its id): it reaches only that workspace's records. Absent: every workspace of the account. */
  workspaceId?: string;
  /** The OAuth grant this credential rests on (an access token's, or a key's made under one): keys it creates end with it. */
  grantId?: string;
}

/** The AuthContext field of a credential stored with a workspace restriction (key, OAuth grant, console session); none when unrestricted. */
export const workspaceRestriction = (workspaceId: string | null | undefined): Pick<AuthContext, 'workspaceId'> => (workspaceId ? { workspaceId } : {});

/** What a request shows of its credential before anything is looked up. */
export interface PresentedCredential {
  authorization: string | undefined;
  /** The request carries a console session cookie (src/modules/console/console.cookie.ts). */
  consoleCookie: boolean;
}

const ACCESS_TOKEN = /^Bearer\s+swat_/i;

/**
 * Which credential a request carries, decided in this one place: a console session when there is no
 * Authorization header but a console cookie, an OAuth access token when the Bearer value has its
 * form (swat_...), else an API key (whose check also reports a missing or malformed header).
 */
export function credentialKind(presented: PresentedCredential): CredentialKind {
  if (!presented.authorization) return presented.consoleCookie ? 'console' : 'api_key';
  return ACCESS_TOKEN.test(presented.authorization) ? 'oauth_client' : 'api_key';
}
