/**
 * The direction of dependencies (issue 32, docs/architecture.md), checked by `npm run lint:deps`
 * before the tests. Each layer imports only npm packages, itself and the layers below it:
 *   0 lib      src/lib (pure helpers), errors.ts, ids.ts, clock.ts, config.ts, logging.ts;
 *              src/runtime (worker threads and their pools, idle GC, event-loop pacing) beside it, which
 *              imports lib; lib never imports runtime
 *   1 db       src/db (connections, table types, migrations, dialect SQL)
 *   2 auth     src/auth (who is calling: AuthContext, scopes, expected versions)
 *   3 domain   src/events, src/sparks, src/webhook-delivery, src/ops, src/modules except *.routes.ts
 *   4 adapters src/http, src/mcp, src/modules/**\/*.routes.ts (REST and MCP over the same services)
 *   5 app      app.ts, server.ts, container.ts, main.ts, src/cli (the wiring: anything)
 * The console (console/src, a browser bundle) takes only src/lib from the server.
 * A cycle is a design question, not a lint to silence: none in src/ or console/src.
 * Type-only imports count too (tsPreCompilationDeps), so a service cannot borrow an HTTP type.
 */
const LIB = '^src/(lib/|runtime/|(errors|ids|clock|config|logging)\\.ts$)';
const DB = '^src/db/';
const AUTH = '^src/auth/';
const ROUTES = '^src/modules/.+\\.routes\\.ts$';
const DOMAIN = '^src/(events|sparks|webhook-delivery|ops|modules)/';
const HTTP = '^src/http/';
const MCP = '^src/mcp/';
const APP = '^src/((app|server|container|main)\\.ts$|cli/)';
const LAYERED = [LIB, DB, AUTH, DOMAIN, HTTP, MCP, APP];

/** A rule that files matching `from` (minus `fromNot`) import only npm packages and `allowed`. */
const onlyBelow = (name, comment, from, allowed, fromNot) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, ...(fromNot ? { pathNot: fromNot } : {}) },
  to: { path: '^src/', pathNot: allowed },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles in the server or the console (type-only imports included).',
      severity: 'error',
      from: { path: '^(src|console/src)/' },
      to: { circular: true },
    },
    {
      name: 'no-unlayered-file',
      comment: 'Every file under src/ belongs to a layer; a new top-level file or folder is placed in this config first.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: LAYERED },
    },
    {
      name: 'lib-is-pure',
      comment: 'src/lib holds pure helpers: threads, pools, idle GC and pacing live in src/runtime, which lib never imports.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/runtime/' },
    },
    onlyBelow('lib-imports-lib-only', 'Layer 0 (lib, errors, ids, clock, config) imports npm packages and itself only.', LIB, [LIB]),
    onlyBelow('db-imports-lib-db-only', 'Layer 1 (src/db) imports lib and db only.', DB, [LIB, DB]),
    onlyBelow('auth-imports-below-only', 'Layer 2 (src/auth) imports lib, db and auth only.', AUTH, [LIB, DB, AUTH]),
    onlyBelow(
      'domain-imports-below-only',
      'Layer 3 (services, repos, schemas, rules) never imports routes, src/http, src/mcp or the app wiring.',
      DOMAIN,
      [LIB, DB, AUTH, `${DOMAIN}(?!.+\\.routes\\.ts$)`],
      ROUTES,
    ),
    onlyBelow(
      'adapters-import-below-only',
      'Layer 4 (REST routes, src/http, src/mcp) never imports the app wiring (app.ts, container.ts, server.ts, main.ts, cli).',
      [HTTP, MCP, ROUTES],
      [LIB, DB, AUTH, DOMAIN, HTTP, MCP],
    ),
    {
      name: 'mcp-not-http',
      comment: 'MCP tools call the services, never the REST adapter (src/http or a routes file).',
      severity: 'error',
      from: { path: MCP },
      to: { path: [HTTP, ROUTES] },
    },
    {
      name: 'http-not-mcp',
      comment: 'REST (src/http and routes files) never imports the MCP adapter; app.ts wires both.',
      severity: 'error',
      from: { path: [HTTP, ROUTES] },
      to: { path: MCP },
    },
    {
      name: 'console-uses-server-lib-only',
      comment: 'The console is a browser bundle: of the server it imports only src/lib (pure code, no Node or database).',
      severity: 'error',
      from: { path: '^console/src/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'server-not-console',
      comment: 'The server never imports the console source; it serves the built bundle.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^console/' },
    },
    {
      name: 'migrations-frozen',
      comment: 'A migration is a frozen document: it imports kysely only, nothing of ours that can change later (index.ts lists them).',
      severity: 'error',
      from: { path: '^src/db/migrations/', pathNot: '^src/db/migrations/index\\.ts$' },
      to: { path: '^src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src|console/src)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    cache: false,
  },
};
