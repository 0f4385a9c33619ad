#!/usr/bin/env node
// Builds the web console (console/ -> dist/console) only when it is missing or older than its sources,
// so `npm start` and `npm test` stay fast when nothing changed. `--force` always builds.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'dist/console/index.html');
const sources = [path.join(root, 'console'), path.join(root, 'src/lib/sanitize-html.ts'), path.join(root, 'package-lock.json')];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of fs.readdirSync(p)) {
    if (name === 'node_modules' || name === 'dist') continue;
    max = Math.max(max, newest(path.join(p, name)));
  }
  return max;
}

const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
const force = process.argv.includes('--force');
if (!force && built > 0 && built >= Math.max(...sources.map(newest))) process.exit(0);

const vite = path.join(root, 'node_modules/vite/bin/vite.js');
if (!fs.existsSync(vite)) {
  // A production install without dev dependencies: keep whatever bundle exists; /console/ explains if none.
  process.stderr.write('vite is not installed (dev dependency); skipping the console build\n');
  process.exit(built > 0 || !force ? 0 : 1);
}
process.stderr.write('Building the web console (dist/console)...\n');
const r = spawnSync(process.execPath, [vite, 'build', '--config', 'console/vite.config.ts'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

// Budget: all the JavaScript the console can load, gzipped (test/e2e/console-editor.test.ts checks it too).
const BUDGET = 250_000;
const assets = path.join(root, 'dist/console/assets');
const gz = fs
  .readdirSync(assets)
  .filter((f) => f.endsWith('.js'))
  .reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(assets, f)), { level: 9 }).length, 0);
process.stderr.write(`Console JavaScript: ${gz} bytes gzipped (budget ${BUDGET})\n`);
if (gz > BUDGET) {
  process.stderr.write('The console JavaScript is over its budget: split or drop something.\n');
  process.exit(1);
}
