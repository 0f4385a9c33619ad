import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { dialects, startServer } from '../helpers.js';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

for (const dialect of dialects()) {
  describe(`GET /healthz (${dialect})`, () => {
    it("answers the running release's version, without a key", async () => {
      const s = await startServer(dialect);
      try {
        const r = await s.req('GET', '/healthz');
        assert.equal(r.status, 200);
        assert.deepEqual(r.body, { success: true, status: 'ok', version: pkg.version });
      } finally {
        await s.close();
      }
    });
  });
}

describe('CHANGELOG.md', () => {
  it("has a section for package.json's version, with an Upgrading note", () => {
    const log = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    const section = log.split(/^## /m).find((s) => s.startsWith(`${pkg.version}\n`));
    assert.ok(section, `CHANGELOG.md has no "## ${pkg.version}" section: describe the release there`);
    assert.match(section, /^### Upgrading$/m);
  });
});
