import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layer and cycle rules of .dependency-cruiser.cjs (run by `npm run lint:deps` before the tests)
 * on a small tree of their own: each forbidden direction is reported, each allowed one is not. The
 * imports are type-only on purpose: a service may not borrow an HTTP type either.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FILES: Record<string, string> = {
  'src/lib/text.ts': "import type { Row } from '../db/types.js';\nexport type Text = Row;",
  'src/lib/fine.ts': "import { clock } from '../clock.js';\nexport const fine = clock;",
  'src/clock.ts': 'export const clock = 1;',
  'src/db/types.ts': "import type { Fine } from '../lib/fine-type.js';\nexport type Row = Fine;",
  'src/lib/fine-type.ts': 'export type Fine = 1;',
  'src/db/migrations/001_first.ts': "import type { Row } from '../types.js';\nexport type First = Row;",
  'src/auth/context.ts': "import type { EventName } from '../events/catalog.js';\nimport type { Row } from '../db/types.js';\nexport type Ctx = EventName | Row;",
  'src/events/catalog.ts': 'export type EventName = 1;',
  'src/modules/things/things.service.ts': "import type { Shape } from '../../http/shapes.js';\nimport type { Ctx } from '../../auth/context.js';\nexport type Svc = Shape | Ctx;",
  'src/modules/things/things.rules.ts': "import type { Route } from './things.routes.js';\nexport type Rule = Route;",
  'src/modules/things/things.routes.ts': "import type { Shape } from '../../http/shapes.js';\nimport type { Svc } from './things.service.js';\nexport type Route = Shape | Svc;",
  'src/http/shapes.ts': 'export type Shape = 1;',
  'src/http/uses-mcp.ts': "import type { A } from '../mcp/a.js';\nexport type U = A;",
  'src/mcp/tool.ts': "import type { Route } from '../modules/things/things.routes.js';\nimport type { Container } from '../container.js';\nexport type Tool = Route | Container;",
  'src/mcp/a.ts': "import type { B } from './b.js';\nexport type A = B;",
  'src/mcp/b.ts': "import type { A } from './a.js';\nexport type B = 1 | A;",
  'src/container.ts': 'export type Container = 1;',
  'src/main.ts': "import type { Tool } from './mcp/tool.js';\nimport type { U } from './http/uses-mcp.js';\nexport type All = Tool | U;",
  'src/stray.ts': 'export const stray = 1;',
  'src/lib/uses-stray.ts': "import { stray } from '../stray.js';\nexport const s = stray;",
  'console/src/page.tsx': "import type { Row } from '../../src/db/types.ts';\nimport type { Fine } from '../../src/lib/fine-type.ts';\nexport type Page = Row | Fine;",
};

const EXPECTED = [
  'auth-imports-below-only src/auth/context.ts -> src/events/catalog.ts',
  'console-uses-server-lib-only console/src/page.tsx -> src/db/types.ts',
  'domain-imports-below-only src/modules/things/things.rules.ts -> src/modules/things/things.routes.ts',
  'domain-imports-below-only src/modules/things/things.service.ts -> src/http/shapes.ts',
  'http-not-mcp src/http/uses-mcp.ts -> src/mcp/a.ts',
  'adapters-import-below-only src/mcp/tool.ts -> src/container.ts',
  'lib-imports-lib-only src/lib/text.ts -> src/db/types.ts',
  'lib-imports-lib-only src/lib/uses-stray.ts -> src/stray.ts',
  'mcp-not-http src/mcp/tool.ts -> src/modules/things/things.routes.ts',
  'migrations-frozen src/db/migrations/001_first.ts -> src/db/types.ts',
  'no-circular src/mcp/a.ts -> src/mcp/b.ts',
  'no-unlayered-file src/lib/uses-stray.ts -> src/stray.ts',
].sort();

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('reports every forbidden direction and cycle, and nothing that is allowed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-deps-'));
    try {
      for (const [file, text] of Object.entries(FILES)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), `${text}\n`);
      }
      fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
      const bin = path.join(ROOT, 'node_modules/.bin/depcruise');
      const args = ['src', 'console/src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'];
      // depcruise exits non-zero when it finds violations; the JSON on stdout is what is checked.
      const out = await promisify(execFile)(bin, args, { cwd: dir, maxBuffer: 16 << 20 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const result = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
      const found = result.summary.violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).sort();
      assert.deepEqual(found, EXPECTED);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
