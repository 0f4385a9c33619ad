#!/usr/bin/env node
// Launcher for `npx sheet-workspace ...` and the package's bin. It runs the compiled JavaScript in
// build/ (compiling src/ first when build/ is missing or older than its sources, ~1 s once); if
// that is not possible (no esbuild, a read-only install), tsx compiles src/ on load instead.
// Nothing here writes to stdout, which the `mcp` command reserves for the protocol.
import fs from 'node:fs';

let entry = new URL('../build/main.js', import.meta.url);
let ready = false;
try {
  const { ensureBuild } = await import('../scripts/build.mjs');
  ready = await ensureBuild();
} catch (err) {
  process.stderr.write(`could not compile src/ to build/ (${err.message}); running the TypeScript through tsx\n`);
}
if (!ready || !fs.existsSync(entry)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = new URL('../src/main.ts', import.meta.url);
}
await import(entry.href);
