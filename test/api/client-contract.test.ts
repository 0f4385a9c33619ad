/**
 * The typed client (packages/client) against the real server, on each database: a representative
 * set of operations goes through it, and every answer is validated against the response schema the
 * OpenAPI document gives for that operation and status, so a server that answers something the
 * document does not say (an undocumented status, a missing or extra field, a wrong type) fails here.
 * The committed generated types must also be exactly what the served document generates today.
 */
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createClient, isApiError, unwrap, SheetWorkspaceError, type ApiError, type Middleware, type SheetWorkspaceClient } from '../../packages/client/src/index.js';
import { SCHEMA_FILE, schemaSource } from '../../packages/client/scripts/openapi-source.js';
import { dialects, startServer, type TestServer } from '../helpers.js';

const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule.default;

/** Validates answers against the document's response schemas, by operation, status and JSON body. */
function contractChecker(doc: Record<string, any>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
  const seen = new Set<string>();

  function check(method: string, schemaPath: string, status: number, body: unknown): void {
    const op = doc.paths[schemaPath]?.[method];
    assert.ok(op, `${method.toUpperCase()} ${schemaPath} is not in the document`);
    const where = `${op.operationId} (${method.toUpperCase()} ${schemaPath}) answered ${status}`;
    assert.ok(op.responses[String(status)], `${where}, a status the document does not list: ${JSON.stringify(body)}`);
    const media = op.responses[String(status)].content?.['application/json'];
    assert.ok(media?.schema, `${where} with JSON the document gives no schema for`);
    const ref = `openapi.json#/${pointer('paths', schemaPath, method, 'responses', String(status), 'content', 'application/json', 'schema')}`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    assert.ok(
      validate(body),
      `${where} with a body the document does not allow: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ')}\n${JSON.stringify(body)}`,
    );
    seen.add(`${op.operationId} ${status}`);
  }

  /** An openapi-fetch middleware: every answer the client receives is checked before the test sees it. */
  const middleware: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      const text = await response.clone().text();
      check(request.method.toLowerCase(), schemaPath, response.status, text ? JSON.parse(text) : undefined);
    },
  };
  return { check, middleware, seen };
}

describe('the committed client types', () => {
  let s: TestServer;
  before(async () => (s = await startServer('sqlite')));
  after(() => s.close());

  it('are what the served OpenAPI document generates (run npm run client:generate when this fails)', async () => {
    const { status, body: doc } = await s.req('GET', '/v1/openapi.json');
    assert.equal(status, 200);
    const fresh = await schemaSource(doc);
    const committed = fs.readFileSync(SCHEMA_FILE, 'utf8');
    if (fresh !== committed) {
      const a = committed.split('\n');
      const b = fresh.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      assert.fail(`packages/client/src/schema.d.ts is stale from line ${line + 1}: committed ${JSON.stringify(a[line])}, the document gives ${JSON.stringify(b[line])}; run npm run client:generate`);
    }
  });
});

for (const dialect of dialects()) {
  describe(`the typed client against the real server (${dialect})`, () => {
    let s: TestServer;
    let client: SheetWorkspaceClient;
    let contract: ReturnType<typeof contractChecker>;
    before(async () => {
      s = await startServer(dialect);
      contract = contractChecker((await s.req('GET', '/v1/openapi.json')).body);
      const { key } = await s.user('pro');
      client = createClient({ baseUrl: s.url, apiKey: key });
      client.use(contract.middleware);
    });
    after(() => s.close());

    it('the checker refuses an answer the document does not allow', () => {
      const sheet = { success: true, id: 'x', title: 't' };
      assert.throws(() => contract.check('post', '/sheets', 200, sheet), /does not allow/);
      assert.throws(() => contract.check('get', '/sheets', 418, {}), /does not list/);
      assert.throws(() => contract.check('get', '/todos', 404, { success: false, error: 'x', code: 'not_found', extra: 1 }), /./);
    });

    it('a document that disagrees with the server fails the call', async () => {
      const doc = (await s.req('GET', '/v1/openapi.json')).body;
      delete doc.components.schemas.Sheet.properties.folder; // the server still answers it
      const { key } = await s.user('pro');
      const drifted = createClient({ baseUrl: s.url, apiKey: key });
      drifted.use(contractChecker(doc).middleware);
      await assert.rejects(
        drifted.POST('/sheets', { body: { title: 'drift', folder: 'x' } }),
        /createSheet \(POST \/sheets\) answered 200 with a body the document does not allow: \/sheet must NOT have additional properties {"additionalProperty":"folder"}/,
      );
    });

    it('sheets: create, list, read (the hot path too), update', async () => {
      const created = await unwrap(client.POST('/sheets', { body: { title: 'Contract notes', tags: ['contract'], folder: 'tests' } }));
      assert.equal(created.sheet.title, 'Contract notes');
      const id = created.id;
      // The same answer, wrong inside a referenced component (Sheet), is refused: the refs are followed.
      assert.doesNotThrow(() => contract.check('post', '/sheets', 200, created));
      assert.throws(() => contract.check('post', '/sheets', 200, { ...created, sheet: { ...created.sheet, surprise: 1 } }), /surprise/);
      assert.throws(() => contract.check('post', '/sheets', 200, { ...created, sheet: { ...created.sheet, tags: 'contract' } }), /tags/);

      const list = await unwrap(client.GET('/sheets', { params: { query: { limit: '10' } } }));
      assert.ok(list.sheets.some((x) => x.id === id));

      const read = await unwrap(client.GET('/sheets/{id}', { params: { path: { id } } }));
      assert.equal(read.sheet.id, id);
      const md = await unwrap(client.GET('/sheets/{id}', { params: { path: { id }, query: { format: 'markdown' } } }));
      assert.equal(md.sheet.id, id);

      const updated = await unwrap(client.PUT('/sheets/{id}', { params: { path: { id } }, body: { title: 'Contract notes 2', expected_version: read.sheet.version } }));
      assert.equal(updated.sheet.title, 'Contract notes 2');

      const stale = await client.PUT('/sheets/{id}', { params: { path: { id } }, body: { title: 'late', expected_version: read.sheet.version } });
      assert.equal(stale.response.status, 412);
      assert.equal(stale.data, undefined);
    });

    it('sessions: the upsert by external id with the record fields, list, read', async () => {
      const record = {
        title: 'Fix the flaky import',
        summary: 'The import test timed out on PostgreSQL; the pool was too small.',
        agent: 'codex',
        project: 'contract',
        outcome: 'fixed',
        files_changed: ['src/db/pool.ts'],
        errors: [{ command: 'npm test', error: 'Error: timeout after 5000 ms' }],
        tasks_done: ['raise the pool size'],
        tasks_open: ['a test for the pool'],
        prompts: ['why does the import time out?'],
        tags: ['db'],
        source: 'capture' as const,
      };
      const first = await unwrap(client.PUT('/sessions/external/{external_id}', { params: { path: { external_id: 'codex:contract-1' } }, body: record }));
      const again = await unwrap(client.PUT('/sessions/external/{external_id}', { params: { path: { external_id: 'codex:contract-1' } }, body: { ...record, outcome: 'fixed, with a test' } }));
      assert.equal(again.session.id, first.session.id, 'the same external id updates the one session');
      assert.equal(again.session.agent, 'codex');

      const list = await unwrap(client.GET('/sessions', { params: { query: { project: 'contract' } } }));
      assert.ok(list.sessions.some((x) => x.id === first.session.id));
      const one = await unwrap(client.GET('/sessions/{id}', { params: { path: { id: first.session.id } } }));
      assert.deepEqual(one.session.files_changed, ['src/db/pool.ts']);
    });

    it('todos sync, knowledge, briefing and search', async () => {
      const synced = await unwrap(
        client.POST('/todos', {
          body: {
            project: 'contract',
            todos: [
              { content: 'a test for the pool', status: 'pending', priority: 'high' },
              { content: 'raise the pool size', status: 'completed' },
            ],
          },
        }),
      );
      assert.ok(synced.success);
      const todos = await unwrap(client.GET('/todos', { params: { query: { project: 'contract' } } }));
      assert.ok(todos.todos.length >= 2);

      const solution = await unwrap(
        client.POST('/knowledge', {
          params: { query: { type: 'solutions' } },
          body: { title: 'Import timeout on PostgreSQL', content: 'Raise the pool size to 10.', error: 'Error: timeout after 5000 ms', tags: ['db'] },
        }),
      );
      const knowledge = await unwrap(client.GET('/knowledge', { params: { query: { type: 'solutions' } } }));
      assert.ok(JSON.stringify(knowledge).includes(solution.id));
      await unwrap(client.GET('/knowledge/{id}', { params: { path: { id: solution.id } } }));

      const briefing = await unwrap(client.GET('/briefing', { params: { query: { project: 'contract' } } }));
      assert.ok(briefing.success);
      const found = await unwrap(client.GET('/search', { params: { query: { q: 'pool timeout' } } }));
      assert.ok(found.results.length > 0);
    });

    it('errors come back typed as { success: false, error, code }', async () => {
      const missing = await client.GET('/sheets/{id}', { params: { path: { id: 'sht_01J0000000000000000000000' } } });
      assert.equal(missing.response.status, 404);
      const err: ApiError | undefined = missing.error;
      assert.equal(err?.code, 'not_found');
      assert.ok(isApiError(err));

      const bad = await client.POST('/sheets', { body: { title: '' } });
      assert.equal(bad.response.status, 400);
      assert.equal(bad.error?.code, 'invalid_request');

      const anonymous = createClient({ baseUrl: `${s.url}/v1/`, apiKey: `sk_${'x'.repeat(43)}` });
      anonymous.use(contract.middleware);
      await assert.rejects(unwrap(anonymous.GET('/sheets')), (e: unknown) => e instanceof SheetWorkspaceError && e.status === 401 && e.code === 'unauthorized');
    });

    it('every operation above was checked against the document', () => {
      const expected = [
        'createSheet 200',
        'listSheets 200',
        'getSheet 200',
        'updateSheet 200',
        'updateSheet 412',
        'upsertSessionByExternalId 201',
        'upsertSessionByExternalId 200',
        'listSessions 200',
        'getSession 200',
        'syncTodos 200',
        'listTodos 200',
        'createKnowledge 200',
        'listKnowledge 200',
        'getKnowledge 200',
        'getBriefing 200',
        'search 200',
        'getSheet 404',
        'createSheet 400',
        'listSheets 401',
      ];
      for (const e of expected) assert.ok(contract.seen.has(e), `${e} went through the checker (seen: ${[...contract.seen].join(', ')})`);
    });
  });
}
