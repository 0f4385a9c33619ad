import { invalid } from '../errors.js';

/**
 * Conditional writes over record versions (RFC 9110 section 13). A record's ETag is its version in
 * quotes ("3"); clients may send it back weak (W/"3"), as a list, or as `*`. REST reads If-Match and
 * `expected_version`, MCP tools `expected_version`; the services compare the row's version with it.
 */

/** The versions a write accepts; undefined means no check (last writer wins, still atomic). */
export type ExpectedVersions = readonly number[] | undefined;

const TAG = /^\s*(?:W\/)?"(\d{1,15})"\s*$/;

/** The versions an If-Match / If-None-Match header names, or `*`; a 400 naming the header otherwise. */
export function parseVersionTags(header: string, name: string): number[] | '*' {
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
  const fromHeader = ifMatch === undefined ? undefined : parseVersionTags(ifMatch, 'If-Match');
  const header = fromHeader === '*' ? undefined : fromHeader;
  if (bodyVersion === undefined) return header;
  if (header && !header.includes(bodyVersion)) throw invalid(`If-Match ${ifMatch} and expected_version ${bodyVersion} disagree`);
  return [bodyVersion];
}
