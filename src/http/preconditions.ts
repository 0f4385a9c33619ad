import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { invalid } from '../errors.js';
import { ErrorResponse } from './schemas.js';

/**
 * Conditional requests over record versions (RFC 9110 section 13). A record's ETag is its version
 * in quotes ("3"); clients may send it back weak (W/"3"), as a list, or as `*`.
 */

/** The versions a write accepts; undefined means no check (last writer wins, still atomic). */
export type ExpectedVersions = readonly number[] | undefined;

export const etagOf = (version: number) => `"${version}"`;

const TAG = /^\s*(?:W\/)?"(\d{1,15})"\s*$/;

function parseList(header: string, name: string): number[] | '*' {
  if (header.trim() === '*') return '*';
  const versions = header.split(',').map((part) => {
    const m = TAG.exec(part);
    if (!m) throw invalid(`header '${name}' must be "<version>", W/"<version>" or *, got ${JSON.stringify(header.slice(0, 40))}`);
    return Number(m[1]);
  });
  return versions;
}

/**
 * The check a write must pass: If-Match and/or `expected_version` from the body. `*` only asks that
 * the record exists, which every update does anyway. Both given and disagreeing: 400.
 */
export function expectedVersions(ifMatch: string | undefined, bodyVersion?: number): ExpectedVersions {
  const fromHeader = ifMatch === undefined ? undefined : parseList(ifMatch, 'If-Match');
  const header = fromHeader === '*' ? undefined : fromHeader;
  if (bodyVersion === undefined) return header;
  if (header && !header.includes(bodyVersion)) throw invalid(`If-Match ${ifMatch} and expected_version ${bodyVersion} disagree`);
  return [bodyVersion];
}

/** True when If-None-Match names the current version (or is `*`): a GET answers 304. */
export function notModified(ifNoneMatch: string | undefined, version: number): boolean {
  if (ifNoneMatch === undefined) return false;
  const parsed = parseList(ifNoneMatch, 'If-None-Match');
  return parsed === '*' || parsed.includes(version);
}

/**
 * Answers 304 with the ETag and no body. Sent as `undefined`: the route's 304 schema would serialize
 * a `null` to "null" and send Content-Length: 4, where RFC 9110 allows only the 200's length.
 */
export function sendNotModified(reply: FastifyReply, version: number) {
  return reply.code(304).header('etag', etagOf(version)).send(undefined as never);
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

/** `expected_version` in a JSON body, for clients that cannot set headers. */
export const expectedVersionField = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Write only if the record is at this version (same as If-Match); otherwise 412 version_conflict');

/** The 412 body: the error plus the version the record is at now. */
export const VersionConflictResponse = ErrorResponse.extend({
  current_version: z.number().int().describe('The version the record is at now; read it again, then retry with this version.'),
})
  .describe('Precondition failed (code version_conflict): the record is not at the version If-Match or expected_version named. Nothing changed.')
  .meta({ id: 'VersionConflict' });

/** A 304 has no body. */
export const NotModifiedResponse = z.null().describe('Not modified: If-None-Match names the current version (the ETag).');
