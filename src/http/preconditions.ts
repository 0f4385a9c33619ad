import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { parseVersionTags } from '../auth/expected-versions.js';
import { ErrorResponse } from './schemas.js';

/**
 * Conditional requests over record versions (RFC 9110 section 13): ETags, 304s and their schemas.
 * What a write accepts (If-Match, expected_version) is src/auth/expected-versions.ts.
 */

export const etagOf = (version: number) => `"${version}"`;

/** True when If-None-Match names the current version (or is `*`): a GET answers 304. */
export function notModified(ifNoneMatch: string | undefined, version: number): boolean {
  if (ifNoneMatch === undefined) return false;
  const parsed = parseVersionTags(ifNoneMatch, 'If-None-Match');
  return parsed === '*' || parsed.includes(version);
}

/**
 * Answers 304 with the ETag and no body. Sent as `undefined`: the route's 304 schema would serialize
 * a `null` to "null" and send Content-Length: 4, where RFC 9110 allows only the 200's length.
 */
export function sendNotModified(reply: FastifyReply, version: number) {
  return reply
    .code(304)
    .header('etag', etagOf(version))
    .send(undefined as never);
}

const tagDescription = 'A version as an entity tag: "3", W/"3", a comma-separated list of them, or *';

/** Request headers of a conditional write, for the route schema (and so for OpenAPI). */
export const IfMatchHeaders = z.object({
  'if-match': z.string().optional().describe(`${tagDescription}. On mismatch: 412 version_conflict with current_version; nothing changes.`),
});

/** Request headers of a conditional read. */
export const IfNoneMatchHeaders = z.object({
  'if-none-match': z.string().optional().describe(`${tagDescription}. When it names the current version: 304 with no body.`),
});

/** The 412 body: the error plus the version the record is at now. */
export const VersionConflictResponse = ErrorResponse.extend({
  current_version: z.number().int().describe('The version the record is at now; read it again, then retry with this version.'),
})
  .describe('Precondition failed (code version_conflict): the record is not at the version If-Match or expected_version named. Nothing changed.')
  .meta({ id: 'VersionConflict' });

/** A 304 has no body. */
export const NotModifiedResponse = z.null().describe('Not modified: If-None-Match names the current version (the ETag).');
