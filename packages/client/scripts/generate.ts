/** npm run client:generate — writes packages/client/src/schema.d.ts from the server's OpenAPI document. */
import fs from 'node:fs';
import { SCHEMA_FILE, loadOpenApiDocument, schemaSource } from './openapi-source.js';

const text = await schemaSource(await loadOpenApiDocument());
const before = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
fs.writeFileSync(SCHEMA_FILE, text);
console.log(`${SCHEMA_FILE}: ${before === text ? 'unchanged' : 'written'} (${text.split('\n').length} lines)`);
