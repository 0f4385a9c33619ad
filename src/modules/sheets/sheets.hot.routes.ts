import type { IncomingMessage } from 'node:http';
import { authenticateBearer, type BearerAuth } from '../../http/auth.js';
import type { HotAnswer, HotRoute } from '../../http/hot-path.js';
import { API_PREFIX } from '../../http/openapi.js';
import { etagOf, notModified } from '../../http/preconditions.js';
import type { RateLimits } from '../../http/rate-limit.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import { requireScopes, requiredScopes } from '../../auth/scopes.js';
import type { SheetsService } from './sheets.service.js';
import { sheetResponseJson } from './sheets.view.js';

const ROUTE = `${API_PREFIX}/sheets/:id`;
/** Plain ids only (what the service issues): anything percent-encoded, longer or with a query goes to Fastify. */
const PLAIN_PATH = new RegExp(`^${API_PREFIX}/sheets/([A-Za-z0-9_-]{1,100})$`);

interface Deps {
  apiKeys: ApiKeysService;
  tokens?: BearerAuth;
  /** Read per request: the limits are registered after the server is made (none yet: the request is refused). */
  limits: () => RateLimits | undefined;
  sheets: SheetsService;
}

/**
 * The hot route (src/http/hot-path.ts) of GET /v1/sheets/{id} without a query, with a Bearer
 * credential: the same steps as the route in sheets.routes.ts behind the /v1 auth hook
 * (authenticate, count the plan's limit, check the scope, read, If-None-Match), minus the framework
 * around them; any error hands the request to that route (which does not count it twice). The
 * body is the one that route's response schema serializes, built from the stored JSON (sheetJson);
 * test/api/hot-path.test.ts holds the two byte for byte against each other.
 */
export function hotSheetRead(deps: Deps): HotRoute {
  const scopes = requiredScopes('GET', ROUTE);
  return (req) => {
    if (req.method !== 'GET' || !req.headers.authorization) return undefined;
    const match = PLAIN_PATH.exec(req.url ?? '');
    return match ? answer(req, match[1]) : undefined;
  };

  async function answer(req: IncomingMessage, id: string): Promise<HotAnswer | undefined> {
    // On PostgreSQL the row and the auth generation come in one statement, issued before the key is
    // checked (its rows are used only once it is): one round trip where the generation read and then
    // the row took two, with the wait for a shared generation read besides (docs/performance.md, nineteenth pass).
    // Only for a key that authenticated here before, so unknown or made-up keys cost no read of a sheet.
    const early = deps.apiKeys.isKnown(req.headers.authorization!) ? deps.sheets.readForJson(id) : undefined;
    const peeked = early && (await early);
    const auth = await authenticateBearer(req.headers.authorization, deps.apiKeys, deps.tokens, peeked?.authGeneration);
    const limits = deps.limits();
    // Thrown, this hands the request to Fastify, whose /v1 hook then refuses it the same way.
    if (!limits) throw new Error('rate limits are not registered');
    const counted = await limits.countRequest(req, auth);
    if (counted.refusal) throw counted.refusal;
    requireScopes(auth.scopes, scopes);
    const plain = plainSheetAnswer(await (peeked ? deps.sheets.jsonOf(auth, peeked.row, id) : deps.sheets.getJson(auth, id)), req.headers['if-none-match']);
    return { status: plain.status, route: ROUTE, headers: { ...counted.headers, etag: plain.etag }, body: plain.body };
  }
}

/**
 * The one handler body of a plain GET /v1/sheets/{id} (no window parameters), whichever path answers it:
 * the hot route above, or the Fastify route in sheets.routes.ts (any request the hot route hands over).
 * The sheet's stored JSON inside GetSheetResponse, or 304 when If-None-Match names its version.
 */
export function plainSheetAnswer({ version, json }: { version: number; json: Buffer }, ifNoneMatch: string | undefined): { status: 200 | 304; etag: string; body?: Buffer } {
  const etag = etagOf(version);
  if (notModified(ifNoneMatch, version)) return { status: 304, etag };
  return { status: 200, etag, body: sheetResponseJson(json) };
}
