#!/usr/bin/env node
// Launcher for `npx sheet-workspace ...` and the package's bin: the service ships as TypeScript,
// so tsx (a runtime dependency) compiles it on load. Nothing here writes to stdout, which the
// `mcp` command reserves for the protocol.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/main.ts', import.meta.url).href);
