import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder holding the project's package.json. The code runs from src/ (tsx, tests) and from one
 * bundled file in build/ (`npm start`), at different depths, so paths to dist/ are found from here.
 */
export function projectRoot(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${import.meta.dirname}`);
  }
}
