/**
 * Where the client's types come from: the OpenAPI 3.1 document the server itself serves at
 * /v1/openapi.json (src/http/openapi.ts, generated from the zod schemas), built in-process from
 * buildApp on a throw-away SQLite data directory, then turned into TypeScript by openapi-typescript.
 * Used by scripts/generate.ts (npm run client:generate) and by test/api/client-contract.test.ts, which
 * regenerates the types in memory and fails when the committed src/schema.d.ts is stale.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createContainer } from '../../../src/container.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../src/schema.d.ts', import.meta.url));

const HEADER = `/**
 * Generated from the server's OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
 * Do not edit: run \`npm run client:generate\` after changing a route's schema.
 * test/api/client-contract.test.ts fails while this file disagrees with the document.
 */

`;

/** The document exactly as GET /v1/openapi.json serves it, from a server that is never listening. */
export async function loadOpenApiDocument(): Promise<OpenAPI3> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-openapi-'));
  try {
    const c = await createContainer(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', BOOTSTRAP_OWNER: '0' }));
    try {
      const app = await buildApp(c, { logger: false, hotPaths: false });
      try {
        const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
        if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.body}`);
        return res.json();
      } finally {
        await app.close();
      }
    } finally {
      await c.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The TypeScript text of src/schema.d.ts for `doc`. */
export async function schemaSource(doc: OpenAPI3): Promise<string> {
  const ast = await openapiTS(doc, { alphabetize: true, rootTypes: false });
  return HEADER + astToString(ast);
}
