import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, type Res } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { DEEP_HTML, LONE, NUL, deepJunk, typeOf, validValue, wrongTypes, type Schema } from '../fuzz-helpers.js';

/**
 * The REST side of issue 16 points 10 and 12: every operation in the OpenAPI document gets generated
 * bad input (wrong body types, NUL and lone surrogates in every body field and path parameter, nested
 * junk, bodies that are not objects). Never a 5xx; text refusals are 400s naming the field.
 */
type Param = { name: string; in: string; required?: boolean; schema?: Schema };

for (const dialect of dialects()) {
  describe(`REST fuzz: every operation, bad input [${dialect}]`, () => {
    let key: string;
    let doc: { paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>> };
    const { s } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
    before(async () => {
      key = (await s.user('business')).key;
      doc = (await s.req('GET', '/v1/openapi.json')).body;
    });

    it('never a 5xx, and bad text is a 400 naming the field', async () => {
      const failures: string[] = [];
      const deepRefusals: Res[] = [];
      let operations = 0;
      for (const [template, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          operations++;
          const params = op.parameters ?? [];
          const query = params
            .filter((p) => p.in === 'query' && p.required)
            .map((p) => `${p.name}=${encodeURIComponent(String(validValue(p.schema ?? {})))}`)
            .join('&');
          const pathWith = (bad?: { name: string; value: string }) =>
            `/v1${template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(bad?.name === name ? bad.value : name === 'version' ? '1' : name === 'col' ? 'col1' : 'zz_fuzz'))}${query ? `?${query}` : ''}`;
          const schema = op.requestBody?.content?.['application/json']?.schema;
          const props = schema?.properties ?? {};
          const base: Record<string, unknown> = {};
          for (const r of schema?.required ?? []) base[r] = validValue(props[r] ?? {});

          const cases: { label: string; path: string; body?: unknown; names?: string; where?: string }[] = [];
          for (const p of params.filter((x) => x.in === 'path')) {
            cases.push({ label: `NUL in path ${p.name}`, path: pathWith({ name: p.name, value: NUL }), body: schema ? base : undefined, names: p.name, where: 'path parameter' });
          }
          if (schema) {
            for (const junk of [[], 'a string', 42, null]) cases.push({ label: `body ${JSON.stringify(junk)}`, path: pathWith(), body: junk });
            cases.push({ label: 'nested junk', path: pathWith(), body: { ...base, zz_junk: deepJunk(300) } });
            for (const [name, p] of Object.entries(props)) {
              for (const v of wrongTypes(p)) cases.push({ label: `${name} = ${JSON.stringify(v)}`, path: pathWith(), body: { ...base, [name]: v } });
              const t = typeOf(p);
              const bad = (value: unknown) => (t === 'array' ? [value] : t === 'object' ? { col1: value } : value);
              cases.push({ label: `NUL in ${name}`, path: pathWith(), body: { ...base, [name]: bad(NUL) }, names: name, where: 'field' });
              cases.push({ label: `lone surrogate in ${name}`, path: pathWith(), body: { ...base, [name]: bad(LONE) }, names: name, where: 'field' });
              if (t === 'string' || t === 'object') cases.push({ label: `deeply nested HTML in ${name}`, path: pathWith(), body: { ...base, [name]: bad(DEEP_HTML) } });
            }
          }
          const answers: Res[] = await Promise.all(
            cases.map((c) => s.req(method.toUpperCase(), c.path, { key, ...(c.body !== undefined ? { raw: JSON.stringify(c.body), headers: { 'content-type': 'application/json' } } : {}) })),
          );
          cases.forEach((c, i) => {
            const r = answers[i];
            const label = `${method.toUpperCase()} ${template} ${c.label}`;
            if (r.status >= 500) return failures.push(`${label}: ${r.status} ${JSON.stringify(r.body)}`);
            if (!c.names) {
              if (r.status < 400 && c.label.startsWith('body ')) failures.push(`${label}: accepted (${r.status})`);
              if (label === 'POST /sheets deeply nested HTML in content') deepRefusals.push(r);
              return;
            }
            if (r.status !== 400 || !String(r.body?.error).startsWith(`${c.where} '${c.names}`)) failures.push(`${label}: ${r.status} ${JSON.stringify(r.body)}`);
          });
        }
      }
      assert.ok(operations >= 40, `${operations} operations`);
      assert.deepEqual(failures, []);
      assert.equal(deepRefusals.length, 1);
      assert.equal(deepRefusals[0].status, 400);
      assert.match(deepRefusals[0].body.error, /^content\.col1 nests HTML elements 5000 deep; at most 200/);
    });
  });
}
