#!/usr/bin/env node
// Bundles src/ into build/ with esbuild, so `npm start` runs plain JavaScript and loads a few large
// files instead of resolving, reading and compiling ~1,000 small ones (that was most of start-up).
// Entries: build/main.js and the worker-thread files beside it; code shared with lazily
// imported modules goes to build/chunk-*.js. Packages that find their own files by __dirname (Swagger
// UI's assets, pino's transports, the native SQLite binding, piscina's workers) or that load only on
// first use stay in node_modules. Skips the work when build/ is newer than every source; `--force`
// always builds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const out = path.join(root, 'build');
const stamp = path.join(out, '.stamp');

const EXTERNAL = ['better-sqlite3', '@fastify/swagger-ui', '@fastify/static', 'yaml', 'pino', 'pino-pretty', 'thread-stream', 'piscina', 'ioredis', 'pg', 'openai', '@anthropic-ai/sdk', 'turndown'];

function listTs(dir, acc = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listTs(p, acc);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) acc.push(p);
  }
  return acc;
}

function newestMtime(files) {
  let max = 0;
  for (const f of files) max = Math.max(max, fs.statSync(f).mtimeMs);
  // A deleted or renamed source changes its folder's mtime.
  const dirs = new Set(files.filter((f) => f.startsWith(src + path.sep)).map((f) => path.dirname(f)));
  for (const d of dirs) max = Math.max(max, fs.statSync(d).mtimeMs);
  return max;
}

/**
 * Compiles src/ to build/ unless build/ is already newer than every source. Returns true when
 * build/ is usable afterwards. Writes only to stderr (stdout belongs to the `mcp` command).
 */
export async function ensureBuild({ force = false } = {}) {
  const files = listTs(src);
  const inputs = [...files, path.join(root, 'package.json'), path.join(root, 'scripts/build.mjs')];
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (!force && built > 0 && built >= newestMtime(inputs)) return true;

  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    process.stderr.write('esbuild is not installed; cannot compile src/ to build/ (run `npm ci`)\n');
    return false;
  }
  const t0 = performance.now();
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  await esbuild.build({
    // Workers sit beside main.js, as they sit beside the modules that start them in src/.
    entryPoints: {
      main: path.join(src, 'main.ts'),
      'html-text.worker': path.join(src, 'runtime/html-text.worker.ts'),
      'html-convert.worker': path.join(src, 'runtime/html-convert.worker.ts'),
      'sqlite-reader.worker': path.join(src, 'db/sqlite/sqlite-reader.worker.ts'),
      'sqlite-checkpoint.worker': path.join(src, 'db/sqlite/sqlite-checkpoint.worker.ts'),
      'search-index.worker': path.join(src, 'modules/search/search-index.worker.ts'),
    },
    outdir: tmp,
    bundle: true,
    splitting: true,
    external: EXTERNAL,
    // Bundled CommonJS packages call require() for Node's modules and for the external packages.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    format: 'esm',
    platform: 'node',
    // 20.18 keeps `with { type: 'json' }` import attributes (a plain node20 target strips them).
    target: 'node20.18',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(tmp, '.stamp'), `${new Date().toISOString()}\n`);
  // Swap in whole, so a process starting meanwhile never sees half a build.
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(tmp, out);
  process.stderr.write(`Bundled ${files.length} files into build/ in ${Math.round(performance.now() - t0)} ms\n`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ok = await ensureBuild({ force: process.argv.includes('--force') }).catch((err) => {
    process.stderr.write(`${err.message}\n`);
    return false;
  });
  process.exit(ok ? 0 : 1);
}
