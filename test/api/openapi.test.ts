import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../server-fixture.js';

describe('OpenAPI document, playground and health', () => {
  const { s } = useServer('sqlite');

  it('serves an OpenAPI 3.1 document with the Bearer scheme and the /v1 server', async () => {
    const { status, body } = await s.req('GET', '/v1/openapi.json');
    assert.equal(status, 200);
    assert.equal(body.openapi, '3.1.0');
    assert.deepEqual(body.servers, [{ url: '/v1', description: 'This server' }]);
    assert.deepEqual(body.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sk_...',
      description: 'An API key from POST /api-keys or the CLI.',
    });
    assert.deepEqual(body.security, [{ bearerAuth: [] }]);
    assert.ok(body.components.schemas.Error, 'the shared error shape is a component');
    for (const p of ['/sheets', '/sheets/{id}', '/sheets/{id}/restore', '/api-keys', '/api-keys/{id}']) assert.ok(body.paths[p], `${p} is documented`);
    assert.equal(
      Object.keys(body.paths).some((p) => p.startsWith('/v1') || p.startsWith('/playground')),
      false,
    );
  });

  it('documents every operation with an id, its errors, and a route that really requires the key', async () => {
    const { body } = await s.req('GET', '/v1/openapi.json');
    const ids = new Set<string>();
    for (const [p, item] of Object.entries<any>(body.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        assert.ok(op.operationId, `${method} ${p} has an operationId`);
        assert.equal(ids.has(op.operationId), false, `operationId ${op.operationId} is unique`);
        ids.add(op.operationId);
        const url = `/v1${p.replaceAll(/\{[^}]+\}/g, 'x_1')}`;
        const res = await s.req(method.toUpperCase(), url);
        // An operation that declares no security (a share link's read) must really answer without a key.
        if (Array.isArray(op.security) && op.security.length === 0) {
          assert.notEqual(res.status, 401, `${method} ${url} needs no key`);
          assert.equal(op.responses['401'], undefined, `${method} ${p} documents no 401`);
          continue;
        }
        for (const code of ['200', '400', '401', '500']) assert.ok(op.responses[code], `${method} ${p} documents ${code}`);
        if (p.includes('{id}')) for (const code of ['403', '404']) assert.ok(op.responses[code], `${method} ${p} documents ${code}`);
        assert.equal(res.status, 401, `${method} ${url} without a key is 401`);
      }
    }
  });

  it('documents the windowed-read, outline and fields parameters (docs/agents.md)', async () => {
    const { body } = await s.req('GET', '/v1/openapi.json');
    const params = (p: string) => (body.paths[p].get.parameters as any[]).map((x) => x.name);
    for (const name of ['columns', 'format', 'max_chars', 'offset_chars', 'lines']) assert.ok(params('/sheets/{id}').includes(name), `GET /sheets/{id} documents ${name}`);
    for (const p of ['/sheets', '/sessions', '/knowledge']) assert.ok(params(p).includes('fields'), `GET ${p} documents fields`);
    assert.ok(body.paths['/sheets/{id}/columns'].get, 'the outline is documented');
    for (const p of body.paths['/sheets/{id}'].get.parameters) assert.ok(p.description || p.in === 'path' || p.in === 'header', `${p.name} is described`);
  });

  it('the playground is served locally, with no CDN', async () => {
    const res = await fetch(`${s.url}/playground/`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /swagger-ui/i);
    assert.doesNotMatch(html, /(src|href)="https?:\/\//, 'no external scripts or styles');
    const asset = await fetch(`${s.url}/playground/static/swagger-ui-bundle.js`);
    assert.equal(asset.status, 200);
  });

  it('/healthz answers without a key', async () => {
    const r = await s.req('GET', '/healthz');
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
  });
});
