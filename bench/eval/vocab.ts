/**
 * The vocabulary of the search benchmark's generator (bench/eval/corpus.ts): projects, components
 * that get replaced, settings that change, errors with their fixes, where code lives, tasks, and the
 * Japanese project's memory. Paraphrases (`para`) are how someone would ask without the record's
 * wording at hand. Written for this repository, under its license.
 */
export interface Project {
  name: string;
  ext: string;
  lang: string;
}
export const PROJECTS: Project[] = [
  { name: 'api', ext: 'ts', lang: 'typescript' },
  { name: 'web', ext: 'tsx', lang: 'typescript' },
  { name: 'billing', ext: 'py', lang: 'python' },
  { name: 'data', ext: 'sql', lang: 'sql' },
  { name: 'mobile', ext: 'kt', lang: 'kotlin' },
  { name: 'infra', ext: 'tf', lang: 'hcl' },
  { name: 'shop-jp', ext: 'ts', lang: 'typescript' },
];

interface Verb {
  past: string;
  next: string;
  ask: string;
}
interface Component {
  name: string;
  tag: string;
  dir: string;
  pairs: [string, string][];
  reasons: string[];
  para: string[];
  verbs: Verb[];
}
const v = (past: string, next: string, ask: string): Verb => ({ past, next, ask });
const migrate = v('Migrated', 'migrate', 'how far along is migrating the');
const replace = v('Replaced', 'replace', 'what remains of replacing the');
const upgrade = v('Upgraded', 'upgrade', 'are we done upgrading the');
const refactor = v('Refactored', 'refactor', 'where are we with refactoring the');

export const COMPONENTS: Component[] = [
  {
    name: 'session store',
    tag: 'auth',
    dir: 'sessions',
    pairs: [
      ['memcached', 'Redis'],
      ['cookie sessions', 'Redis'],
      ['in-memory sessions', 'Postgres sessions'],
    ],
    reasons: ['sessions were lost on every deploy', 'memcached evicted logged-in users under load', 'we needed sessions shared across pods'],
    para: ['where login sessions are kept', 'storing logged-in user sessions', 'session storage'],
    verbs: [migrate, replace],
  },
  {
    name: 'job queue',
    tag: 'jobs',
    dir: 'jobs',
    pairs: [
      ['Bull', 'BullMQ'],
      ['Celery', 'RQ'],
      ['cron scripts', 'a Postgres queue'],
    ],
    reasons: ['retries with backoff were missing', 'stuck jobs needed a manual restart', 'the broker was one more thing to operate'],
    para: ['background jobs', 'the queue for background work', 'the worker queue'],
    verbs: [migrate, upgrade],
  },
  {
    name: 'HTTP client',
    tag: 'http',
    dir: 'http',
    pairs: [
      ['axios', 'undici'],
      ['requests', 'httpx'],
      ['node-fetch', 'native fetch'],
    ],
    reasons: ['it kept sockets open after timeouts', 'we wanted async calls with HTTP/2', 'one dependency less'],
    para: ['outgoing HTTP requests', 'calling other services over http', 'the http library'],
    verbs: [replace, refactor],
  },
  {
    name: 'logger',
    tag: 'logging',
    dir: 'logging',
    pairs: [
      ['winston', 'pino'],
      ['print statements', 'structlog'],
      ['console.log', 'pino'],
    ],
    reasons: ['JSON logs were needed for Loki', 'logging cost 8% of CPU', 'log lines lacked request ids'],
    para: ['logging', 'writing log lines', 'structured logs'],
    verbs: [replace, upgrade],
  },
  {
    name: 'database ORM',
    tag: 'db',
    dir: 'db',
    pairs: [
      ['TypeORM', 'Kysely'],
      ['SQLAlchemy 1.3', 'SQLAlchemy 2'],
      ['Sequelize', 'Prisma'],
    ],
    reasons: ['migrations drifted from the models', 'queries were impossible to type', 'the N+1 queries were hidden'],
    para: ['talking to the database', 'database access layer', 'query builder'],
    verbs: [migrate, refactor],
  },
  {
    name: 'test runner',
    tag: 'tests',
    dir: 'test',
    pairs: [
      ['Jest', 'Vitest'],
      ['nose', 'pytest'],
      ['Mocha', 'node:test'],
    ],
    reasons: ['the suite took 9 minutes', 'ESM support was broken', 'fixtures were easier to share'],
    para: ['running unit tests', 'the testing framework', 'unit test tooling'],
    verbs: [migrate, upgrade],
  },
  {
    name: 'bundler',
    tag: 'build',
    dir: 'build',
    pairs: [
      ['webpack', 'Vite'],
      ['Rollup', 'esbuild'],
      ['Parcel', 'Vite'],
    ],
    reasons: ['dev server start took 40 seconds', 'hot reload lost state', 'builds were too slow on CI'],
    para: ['what bundles the frontend', 'bundling assets', 'the asset bundling tool'],
    verbs: [replace, upgrade],
  },
  {
    name: 'feature flag service',
    tag: 'flags',
    dir: 'flags',
    pairs: [
      ['LaunchDarkly', 'Unleash'],
      ['env variables', 'Flagsmith'],
      ['a JSON file', 'Unleash'],
    ],
    reasons: ['the per-seat price doubled', 'flags needed a rollout percentage', 'flags had to change without a deploy'],
    para: ['feature toggles', 'turning features on and off', 'gradual feature rollouts'],
    verbs: [migrate, replace],
  },
  {
    name: 'email provider',
    tag: 'email',
    dir: 'mail',
    pairs: [
      ['SendGrid', 'Postmark'],
      ['SES', 'Resend'],
      ['SMTP relay', 'Postmark'],
    ],
    reasons: ['password reset mails landed in spam', 'bounces were not reported', 'the API key rotation was manual'],
    para: ['sending emails', 'transactional email', 'outgoing mail'],
    verbs: [replace, migrate],
  },
  {
    name: 'search backend',
    tag: 'search',
    dir: 'search',
    pairs: [
      ['Elasticsearch', 'Meilisearch'],
      ['LIKE queries', 'Postgres full text search'],
      ['Algolia', 'Typesense'],
    ],
    reasons: ['the cluster needed 16 GB of RAM', 'typo tolerance was needed', 'costs grew with every record'],
    para: ['full text search', 'searching products', 'the search engine'],
    verbs: [migrate, refactor],
  },
  {
    name: 'auth library',
    tag: 'auth',
    dir: 'auth',
    pairs: [
      ['jsonwebtoken', 'jose'],
      ['Passport', 'Lucia'],
      ['django-rest-knox', 'simplejwt'],
    ],
    reasons: ['it did not run on the edge runtime', 'token refresh was hand written', 'it was unmaintained'],
    para: ['user authentication', 'auth tokens', 'authentication of requests'],
    verbs: [migrate, replace],
  },
  {
    name: 'date library',
    tag: 'dates',
    dir: 'dates',
    pairs: [
      ['moment', 'date-fns'],
      ['Moment.js', 'Day.js'],
      ['arrow', 'pendulum'],
    ],
    reasons: ['the bundle was 300 KB heavier', 'time zones were wrong around DST', 'moment is in maintenance mode'],
    para: ['formatting dates', 'date and time zone math', 'handling dates and times'],
    verbs: [replace, refactor],
  },
  {
    name: 'metrics exporter',
    tag: 'metrics',
    dir: 'metrics',
    pairs: [
      ['StatsD', 'Prometheus'],
      ['New Relic agent', 'OpenTelemetry'],
      ['Datadog agent', 'OpenTelemetry'],
    ],
    reasons: ['the agent added 120 ms to cold starts', 'we moved dashboards to Grafana', 'vendor lock-in'],
    para: ['metrics', 'observability metrics', 'exporting measurements'],
    verbs: [migrate, upgrade],
  },
  {
    name: 'secrets manager',
    tag: 'secrets',
    dir: 'secrets',
    pairs: [
      ['.env files', 'Vault'],
      ['Kubernetes secrets', 'AWS Secrets Manager'],
      ['Doppler', 'SOPS'],
    ],
    reasons: ['a key leaked in a screenshot', 'rotation had to be automatic', 'secrets must be versioned in git'],
    para: ['storing secrets and credentials', 'where secrets are kept', 'secret API keys and passwords'],
    verbs: [migrate, replace],
  },
  {
    name: 'CI runner',
    tag: 'ci',
    dir: 'ci',
    pairs: [
      ['Travis CI', 'GitHub Actions'],
      ['Jenkins', 'GitHub Actions'],
      ['CircleCI', 'Buildkite'],
    ],
    reasons: ['queue times reached 20 minutes', 'the Jenkins box ran out of disk', 'macOS runners were needed'],
    para: ['continuous integration (CI)', 'the CI build pipeline', 'running CI checks on pull requests'],
    verbs: [migrate, upgrade],
  },
  {
    name: 'package manager',
    tag: 'deps',
    dir: 'tools',
    pairs: [
      ['yarn', 'pnpm'],
      ['npm', 'pnpm'],
      ['pip', 'uv'],
    ],
    reasons: ['workspace hoisting broke builds', 'installs took 4 minutes', 'the lock file kept changing'],
    para: ['installing packages', 'managing packages', 'package installs'],
    verbs: [replace, upgrade],
  },
  {
    name: 'image resizer',
    tag: 'images',
    dir: 'images',
    pairs: [
      ['ImageMagick', 'sharp'],
      ['Pillow', 'pyvips'],
      ['Cloudinary', 'imgproxy'],
    ],
    reasons: ['thumbnails took 2 seconds each', 'memory spiked on large uploads', 'the bill was too high'],
    para: ['image thumbnails', 'resizing uploaded images', 'image processing'],
    verbs: [replace, refactor],
  },
  {
    name: 'PDF renderer',
    tag: 'pdf',
    dir: 'pdf',
    pairs: [
      ['wkhtmltopdf', 'Playwright'],
      ['ReportLab', 'WeasyPrint'],
      ['PhantomJS', 'Puppeteer'],
    ],
    reasons: ['fonts were missing in invoices', 'it is no longer maintained', 'CSS grid was not supported'],
    para: ['generating invoices as PDF', 'PDF export', 'rendering PDF documents'],
    verbs: [replace, migrate],
  },
  {
    name: 'websocket server',
    tag: 'realtime',
    dir: 'realtime',
    pairs: [
      ['socket.io', 'ws'],
      ['Pusher', 'Ably'],
      ['Django Channels', 'a SSE endpoint'],
    ],
    reasons: ['reconnects lost messages', 'the load balancer dropped upgrades', 'long polling fallbacks were useless'],
    para: ['realtime websocket updates', 'pushing live events over websockets', 'the websocket layer'],
    verbs: [refactor, replace],
  },
  {
    name: 'CSV parser',
    tag: 'import',
    dir: 'import',
    pairs: [
      ['csv-parse', 'papaparse'],
      ['pandas read_csv', 'polars'],
      ['a hand-written split', 'csv-parse'],
    ],
    reasons: ['quoted commas broke the import', 'a 2 GB file ran out of memory', 'encoding errors on Shift_JIS files'],
    para: ['importing CSV spreadsheets', 'reading uploaded CSV files', 'bulk CSV import'],
    verbs: [replace, refactor],
  },
  {
    name: 'cache layer',
    tag: 'cache',
    dir: 'cache',
    pairs: [
      ['node-cache', 'Redis'],
      ['lru-cache', 'Redis'],
      ['Django local memory cache', 'Redis'],
    ],
    reasons: ['each pod had its own stale copy', 'invalidation across instances', 'memory grew without bound'],
    para: ['caching', 'caching computed results', 'cached responses'],
    verbs: [migrate, refactor],
  },
  {
    name: 'container base image',
    tag: 'docker',
    dir: 'docker',
    pairs: [
      ['node:18-alpine', 'node:20-slim'],
      ['python:3.9', 'python:3.12-slim'],
      ['ubuntu 20.04', 'debian bookworm'],
    ],
    reasons: ['musl broke the native modules', 'the image had 300 CVEs', 'builds pulled 1.2 GB'],
    para: ['the Docker image', 'what our containers are built from', 'the base image'],
    verbs: [upgrade, replace],
  },
];

interface Setting {
  title: string;
  tag: string;
  values: (n: number) => [string, string];
  sentence: (value: string) => string;
  para: string[];
  why: string[];
}
export const SETTINGS: Setting[] = [
  {
    title: 'Node.js version',
    tag: 'runtime',
    values: (n) => (n % 2 ? ['Node 18', 'Node 20'] : ['Node 20', 'Node 22']),
    sentence: (x) => `Runtime pinned to ${x} in .nvmrc and the Dockerfile`,
    para: ['which node version do we run', 'what version of node is used', 'node runtime version'],
    why: ['18 reached end of life', 'needed the built-in test runner', 'for the faster fetch'],
  },
  {
    title: 'Database connection pool size',
    tag: 'db',
    values: (n) => [`${10 + (n % 5)}`, `${30 + (n % 7)}`],
    sentence: (x) => `Connection pool max set to ${x}`,
    para: ['how many database connections does the pool allow', 'the db pool limit', 'max connections to postgres'],
    why: ['requests waited for a connection at peak', 'the new instance size allows more'],
  },
  {
    title: 'Request timeout',
    tag: 'http',
    values: (n) => [`${5 + (n % 5)} seconds`, `${20 + (n % 10)} seconds`],
    sentence: (x) => `Upstream request timeout is ${x}`,
    para: ['how long before a request times out', 'timeout for upstream calls', 'what is the request time limit'],
    why: ['report exports took longer', 'the payment provider is slow at month end'],
  },
  {
    title: 'Replica count',
    tag: 'k8s',
    values: (n) => [`${2 + (n % 2)} replicas`, `${5 + (n % 4)} replicas`],
    sentence: (x) => `Deployment runs ${x}`,
    para: ['how many pod replicas do we run', 'number of replicas in production', 'how many replicas are deployed'],
    why: ['traffic doubled after the launch', 'one zone went down last month'],
  },
  {
    title: 'Cache TTL',
    tag: 'cache',
    values: (n) => [`${5 + (n % 10)} minutes`, `${1 + (n % 3)} hours`],
    sentence: (x) => `Cached entries expire after ${x}`,
    para: ['how long are things cached', 'when do cache entries expire', 'cache expiry time'],
    why: ['the hit rate was below 40%', 'prices change only hourly'],
  },
  {
    title: 'Postgres version',
    tag: 'db',
    values: (n) => (n % 2 ? ['PostgreSQL 13', 'PostgreSQL 16'] : ['PostgreSQL 14', 'PostgreSQL 15']),
    sentence: (x) => `The database server runs ${x}`,
    para: ['which postgres version is the database on', 'what version is our db server', 'postgres major version'],
    why: ['13 goes out of support', 'we wanted logical replication improvements'],
  },
  {
    title: 'Rate limit',
    tag: 'api',
    values: (n) => [`${60 + (n % 40)} requests per minute`, `${300 + (n % 200)} requests per minute`],
    sentence: (x) => `Clients are limited to ${x}`,
    para: ['what is the request rate limit', 'the throttling limit per client', 'api request quota per minute'],
    why: ['the mobile app polls more often', 'partners asked for a higher quota'],
  },
  {
    title: 'Log retention',
    tag: 'logging',
    values: (n) => [`${7 + (n % 7)} days`, `${30 + (n % 60)} days`],
    sentence: (x) => `Logs are kept for ${x}`,
    para: ['how long do we keep logs', 'log storage duration', 'when are old logs deleted'],
    why: ['an audit asked for a month of history', 'storage got cheaper'],
  },
];

interface ErrorCase {
  tag: string;
  short: string;
  vary: (n: number) => string;
  title: (v: string) => string;
  error: (v: string) => string;
  fix: (v: string) => string;
  pasted: (v: string, line: number) => string;
  nearMiss?: { title: string; error: string; fix: string };
}
const trace = (line: number, ...frames: string[]) => frames.map((f, i) => `    at ${f}:${line + i * 7}:${(line * 3 + i) % 40}`).join('\n');
export const ERRORS: ErrorCase[] = [
  {
    tag: 'db',
    short: 'connection refused',
    vary: (n) => `${5432 + (n % 3)}`,
    title: () => 'Postgres connection refused in docker compose',
    error: (p) => `Error: connect ECONNREFUSED 127.0.0.1:${p}`,
    fix: () => 'The app container used localhost; point DATABASE_HOST at the db service name and wait for its healthcheck.',
    pasted: (p, l) => `Error: connect ECONNREFUSED 127.0.0.1:${p}\n${trace(l, 'TCPConnectWrap.afterConnect [as oncomplete] (node:net', 'Pool.connect (node_modules/pg-pool/index.js')}`,
    nearMiss: { title: 'Socket reset by the load balancer', error: 'Error: read ECONNRESET', fix: 'Idle keep-alive sockets were closed by the ALB after 60s; set keepAliveTimeout to 65s.' },
  },
  {
    tag: 'sqlite',
    short: 'database locked',
    vary: (n) => `${n % 5}`,
    title: () => 'SQLite database is locked under concurrent writes',
    error: () => 'SqliteError: database is locked (SQLITE_BUSY)',
    fix: () => 'Enable WAL and set PRAGMA busy_timeout = 5000 on every connection.',
    pasted: (_v, l) => `SqliteError: database is locked\n${trace(l, 'Statement.run (node_modules/better-sqlite3/lib/methods/wrappers.js', 'saveOrder (src/orders/repo.ts')}\n  code: 'SQLITE_BUSY'`,
  },
  {
    tag: 'node',
    short: 'heap out of memory',
    vary: (n) => `${2000 + (n % 100)}`,
    title: () => 'Build crashes with JavaScript heap out of memory',
    error: (mb) => `FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory (${mb} MB)`,
    fix: () => 'Set NODE_OPTIONS=--max-old-space-size=4096 for the build step and split the source maps.',
    pasted: (mb, l) => `<--- Last few GCs --->\n[${l}:0x5f3c]    ${mb} ms: Mark-Compact ${mb}.1 (2083.5) -> 2047.9 MB\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory`,
  },
  {
    tag: 'ts',
    short: 'TS2345',
    vary: (n) => `${10 + (n % 80)}`,
    title: () => 'TS2345 string | undefined passed to a string parameter',
    error: () => "error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.",
    fix: () => 'Narrow with an early return or use the non-null env helper requireEnv().',
    pasted: (line) =>
      `src/config/env.ts:${line}:18 - error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.\n\n${line}   connect(process.env.DATABASE_URL)\n                    ~~~~~~~~~~~~~~~~~~~~~~~~\n\nFound 1 error in src/config/env.ts:${line}`,
    nearMiss: {
      title: 'TS2322 number assigned to string',
      error: "error TS2322: Type 'number' is not assignable to type 'string'.",
      fix: 'The id column is numeric since the migration; change the type to number.',
    },
  },
  {
    tag: 'python',
    short: 'ModuleNotFoundError',
    vary: (n) => ['psycopg2', 'yaml', 'dateutil'][n % 3],
    title: (m) => `ModuleNotFoundError for ${m} in the worker image`,
    error: (m) => `ModuleNotFoundError: No module named '${m}'`,
    fix: (m) => `The worker image installed only main dependencies; add ${m} to the worker extras and rebuild.`,
    pasted: (m, l) => `Traceback (most recent call last):\n  File "/app/worker/main.py", line ${l}, in <module>\n    import ${m}\nModuleNotFoundError: No module named '${m}'`,
  },
  {
    tag: 'python',
    short: 'IntegrityError',
    vary: (n) => `${n}`,
    title: () => 'Duplicate key on invoice number when two workers run',
    error: () => 'psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "invoices_number_key"',
    fix: () => 'Take the invoice number from a sequence instead of max()+1.',
    pasted: (n, l) =>
      `django.db.utils.IntegrityError: duplicate key value violates unique constraint "invoices_number_key"\nDETAIL:  Key (number)=(INV-${n}) already exists.\n  File "/app/billing/invoices.py", line ${l}, in create_invoice`,
  },
  {
    tag: 'react',
    short: 'hydration mismatch',
    vary: (n) => `${n}`,
    title: () => 'Hydration failed because server and client text differ',
    error: () => 'Error: Hydration failed because the initial UI does not match what was rendered on the server.',
    fix: () => 'The timestamp was formatted with the server time zone; format dates on the client only in a useEffect.',
    pasted: (_n, l) =>
      `Unhandled Runtime Error\nError: Hydration failed because the initial UI does not match what was rendered on the server.\nWarning: Text content did not match. Server: "10:${l % 60}" Client: "19:${l % 60}"`,
  },
  {
    tag: 'react',
    short: 'invalid hook call',
    vary: (n) => `${n}`,
    title: () => 'Invalid hook call with two copies of React',
    error: () => 'Error: Invalid hook call. Hooks can only be called inside of the body of a function component.',
    fix: () => 'The design system bundled its own React; mark react as a peer dependency and dedupe.',
    pasted: (_n, l) =>
      `Invalid hook call. Hooks can only be called inside of the body of a function component. This could happen for one of the following reasons:\n1. You might have mismatching versions of React and the renderer\n    at useState (react.development.js:${l})`,
  },
  {
    tag: 'k8s',
    short: 'CrashLoopBackOff',
    vary: (n) => `api-${n.toString(16)}`,
    title: () => 'Pods in CrashLoopBackOff after the config map change',
    error: () => 'Back-off restarting failed container; CrashLoopBackOff',
    fix: () => 'The new config map misses LOG_LEVEL; the app exits on unknown config. Add it and roll out again.',
    pasted: (pod) => `NAME            READY   STATUS             RESTARTS   AGE\n${pod}-7d9f   0/1     CrashLoopBackOff   6          4m`,
  },
  {
    tag: 'k8s',
    short: 'OOMKilled',
    vary: (n) => `${256 + (n % 4) * 128}`,
    title: () => 'Worker pods OOMKilled during the nightly import',
    error: (mi) => `OOMKilled (exit code 137), limit ${mi}Mi`,
    fix: () => 'Stream the import in chunks of 5,000 rows and raise the memory limit to 1Gi.',
    pasted: (mi) => `    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Limits:\n      memory:  ${mi}Mi`,
  },
  {
    tag: 'git',
    short: 'non-fast-forward',
    vary: (n) => `${n}`,
    title: () => 'Push rejected: non-fast-forward on the release branch',
    error: () => '! [rejected] release -> release (non-fast-forward)',
    fix: () => 'Someone force-pushed the release branch; fetch and rebase, never push --force there.',
    pasted: () =>
      " ! [rejected]        release -> release (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/app.git'\nhint: Updates were rejected because the tip of your current branch is behind",
  },
  {
    tag: 'docker',
    short: 'no space left',
    vary: (n) => `${n}`,
    title: () => 'Docker build fails with no space left on device',
    error: () => 'failed to copy files: no space left on device',
    fix: () => 'The CI runner kept old layers; run docker system prune -af before the build.',
    pasted: (n) => `#${Number(n) % 20} ERROR: failed to copy files: copy file range failed: no space left on device\n------\n > [builder 5/9] COPY . .:`,
  },
  {
    tag: 'npm',
    short: 'ERESOLVE',
    vary: (n) => `${17 + (n % 2)}`,
    title: () => 'npm install fails with ERESOLVE peer dependency conflict',
    error: () => 'npm ERR! code ERESOLVE unable to resolve dependency tree',
    fix: () => 'The charts library still wants React 17; pin it to the 4.x line that accepts React 18.',
    pasted: (r) =>
      `npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Found: react@18.2.0\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@"^${r}.0.0" from react-charts@3.1.0`,
  },
  {
    tag: 'cors',
    short: 'CORS',
    vary: (n) => `${3000 + (n % 3)}`,
    title: () => 'Browser blocks the API call: no Access-Control-Allow-Origin',
    error: () => "blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource",
    fix: () => 'The preview domains were missing from ALLOWED_ORIGINS; match *.preview.acme.dev.',
    pasted: (port) =>
      `Access to fetch at 'https://api.acme.dev/v1/orders' from origin 'http://localhost:${port}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
  },
  {
    tag: 'tls',
    short: 'certificate expired',
    vary: (n) => `${n}`,
    title: () => 'Webhook calls fail with certificate has expired',
    error: () => 'Error: certificate has expired (CERT_HAS_EXPIRED)',
    fix: () => 'The partner endpoint used an old intermediate; update the CA bundle in the image.',
    pasted: (_n, l) => `Error: certificate has expired\n${trace(l, 'TLSSocket.onConnectSecure (node:_tls_wrap', 'TLSSocket.emit (node:events')}\n  code: 'CERT_HAS_EXPIRED'`,
    nearMiss: {
      title: 'Self-signed certificate in the staging chain',
      error: 'Error: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)',
      fix: 'Add the staging CA with NODE_EXTRA_CA_CERTS.',
    },
  },
  {
    tag: 'redis',
    short: 'MOVED',
    vary: (n) => `${n % 16384}`,
    title: () => 'Redis MOVED errors after switching to cluster mode',
    error: (slot) => `ReplyError: MOVED ${slot} 10.0.3.12:6379`,
    fix: () => 'Use the cluster client (new Redis.Cluster) instead of a single node connection.',
    pasted: (slot, l) => `ReplyError: MOVED ${slot} 10.0.3.12:6379\n${trace(l, 'parseError (node_modules/redis-parser/lib/parser.js', 'Redis.sendCommand (node_modules/ioredis/built/Redis.js')}`,
  },
  {
    tag: 'python',
    short: 'RecursionError',
    vary: (n) => `${n}`,
    title: () => 'Maximum recursion depth in the category tree serializer',
    error: () => 'RecursionError: maximum recursion depth exceeded while calling a Python object',
    fix: () => 'A category was its own parent; add a check constraint and walk the tree iteratively.',
    pasted: (_n, l) =>
      `  File "/app/catalog/serializers.py", line ${l}, in to_representation\n    return [self.to_representation(c) for c in node.children]\nRecursionError: maximum recursion depth exceeded while calling a Python object`,
  },
  {
    tag: 'kotlin',
    short: 'NetworkOnMainThread',
    vary: (n) => `${n}`,
    title: () => 'NetworkOnMainThreadException when loading the profile',
    error: () => 'android.os.NetworkOnMainThreadException',
    fix: () => 'Move the call into a coroutine on Dispatchers.IO in the ViewModel.',
    pasted: (_n, l) =>
      `FATAL EXCEPTION: main\nProcess: com.acme.app, PID: ${l * 13}\nandroid.os.NetworkOnMainThreadException\n\tat android.os.StrictMode$AndroidBlockGuardPolicy.onNetwork(StrictMode.java:${l})`,
  },
  {
    tag: 'terraform',
    short: 'state lock',
    vary: (n) => `${n.toString(16)}-4c1e`,
    title: () => 'Terraform cannot acquire the state lock',
    error: (id) => `Error acquiring the state lock: ConditionalCheckFailedException (Lock ID ${id})`,
    fix: () => 'A cancelled CI job left the DynamoDB lock; check nobody applies, then terraform force-unlock.',
    pasted: (id) =>
      `│ Error: Error acquiring the state lock\n│\n│ Error message: ConditionalCheckFailedException: The conditional request failed\n│ Lock Info:\n│   ID:        ${id}\n│   Path:      acme-tf-state/prod/terraform.tfstate`,
  },
  {
    tag: 'dbt',
    short: 'relation does not exist',
    vary: (n) => ['fct_orders', 'dim_customers', 'stg_payments'][n % 3],
    title: (m) => `dbt run fails: relation ${m} does not exist`,
    error: (m) => `Database Error in model ${m}: relation "analytics.${m}" does not exist`,
    fix: (m) => `${m} ran before its parent; use ref() instead of the hard-coded schema name.`,
    pasted: (m, l) =>
      `${l}:02:11  Database Error in model ${m} (models/marts/${m}.sql)\n${l}:02:11    relation "analytics.${m}" does not exist\n${l}:02:11    compiled Code at target/run/acme/models/marts/${m}.sql`,
  },
  {
    tag: 'jest',
    short: 'open handles',
    vary: (n) => `${n}`,
    title: () => 'Jest did not exit one second after the test run',
    error: () => 'Jest did not exit one second after the test run has completed.',
    fix: () => 'The Redis client stayed open; close it in afterAll.',
    pasted: () =>
      "Jest did not exit one second after the test run has completed.\n\nThis usually means that there are asynchronous operations that weren't stopped in your tests. Consider running Jest with `--detectOpenHandles` to troubleshoot.",
  },
  {
    tag: 'auth',
    short: 'JWT expired',
    vary: (n) => `${1700000000 + n}`,
    title: () => 'Tokens rejected as expired right after login',
    error: () => 'JWTExpired: "exp" claim timestamp check failed',
    fix: () => 'The container clock drifted by 6 minutes; enable NTP and allow 30s clock tolerance in jwtVerify.',
    pasted: (exp, l) =>
      `JWTExpired: "exp" claim timestamp check failed\n${trace(l, 'jwtVerify (node_modules/jose/dist/node/esm/jwt/verify.js', 'authenticate (src/auth/middleware.ts')}\n  claim: 'exp', reason: 'check_failed', payload: { exp: ${exp} }`,
  },
  {
    tag: 'stripe',
    short: 'signature verification',
    vary: (n) => `${n}`,
    title: () => 'Stripe webhook signature verification failed',
    error: () => 'StripeSignatureVerificationError: No signatures found matching the expected signature for payload',
    fix: () => 'The body parser changed the raw body; mount express.raw() on the webhook route before json().',
    pasted: (_n, l) =>
      `StripeSignatureVerificationError: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?\n${trace(l, 'validateComputedSignature (node_modules/stripe/lib/Webhooks.js')}`,
  },
  {
    tag: 'python',
    short: 'SSL wrong version',
    vary: (n) => `${n}`,
    title: () => 'SMTP over port 587 fails with wrong version number',
    error: () => 'ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number',
    fix: () => 'Port 587 needs STARTTLS, not SMTP_SSL; use smtplib.SMTP and starttls().',
    pasted: (_n, l) => `  File "/usr/lib/python3.12/ssl.py", line ${l}, in do_handshake\n    self._sslobj.do_handshake()\nssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1000)`,
  },
  {
    tag: 'gradle',
    short: 'duplicate class',
    vary: (n) => `${n}`,
    title: () => 'Gradle build: duplicate class kotlin.collections.jdk8',
    error: () => 'Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib and kotlin-stdlib-jdk8',
    fix: () => 'Align the Kotlin BOM so stdlib-jdk8 is not pulled in at an older version.',
    pasted: () => "Execution failed for task ':app:checkDebugDuplicateClasses'.\n> Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib-1.8.22 and kotlin-stdlib-jdk8-1.7.10",
  },
  {
    tag: 'postgres',
    short: 'deadlock',
    vary: (n) => `${n * 7}`,
    title: () => 'Deadlock between the order and stock updates',
    error: () => 'ERROR: deadlock detected (SQLSTATE 40P01)',
    fix: () => 'Lock the stock rows in id order before updating the order.',
    pasted: (pid) => `ERROR:  deadlock detected\nDETAIL:  Process ${pid} waits for ShareLock on transaction 88123; blocked by process ${pid + 1}.\nHINT:  See server log for query details.\nSQLSTATE: 40P01`,
  },
  {
    tag: 'vite',
    short: 'failed to resolve import',
    vary: (n) => ['@/lib/api', '@/components/Button', '@/hooks/useCart'][n % 3],
    title: (m) => `Vite cannot resolve the ${m} alias`,
    error: (m) => `Failed to resolve import "${m}". Does the file exist?`,
    fix: () => 'The @ alias was in tsconfig paths only; add resolve.alias in vite.config.ts.',
    pasted: (m, l) => `[plugin:vite:import-analysis] Failed to resolve import "${m}" from "src/pages/Checkout.tsx". Does the file exist?\n/app/src/pages/Checkout.tsx:${l}:22`,
  },
  {
    tag: 's3',
    short: 'AccessDenied',
    vary: (n) => `uploads-${n % 4}`,
    title: () => 'S3 upload AccessDenied from the worker role',
    error: () => 'AccessDenied: Access Denied (Service: S3, Status Code: 403)',
    fix: () => 'The bucket policy required aws:SecureTransport and a KMS key the role could not use; grant kms:GenerateDataKey.',
    pasted: (b) => `An error occurred (AccessDenied) when calling the PutObject operation: Access Denied\nupload failed: ./export.csv to s3://${b}/exports/export.csv`,
  },
  {
    tag: 'python',
    short: 'event loop closed',
    vary: (n) => `${n}`,
    title: () => 'RuntimeError: Event loop is closed in pytest-asyncio',
    error: () => 'RuntimeError: Event loop is closed',
    fix: () => 'The httpx client outlived the loop; create it in a fixture with the same scope as the loop.',
    pasted: (_n, l) => `  File "/app/.venv/lib/python3.12/site-packages/anyio/_backends/_asyncio.py", line ${l}, in aclose\nRuntimeError: Event loop is closed`,
  },
];

interface Location {
  what: string;
  para: string[];
  detail: string;
  path: (p: Project) => string;
  test: (p: Project) => string;
  code: string;
}
export const LOCATIONS: Location[] = [
  {
    what: 'rate limiter middleware',
    para: ['the rate limiting code', 'where requests get rate limited', 'the rate limit check'],
    detail: 'Token bucket per API key, 100 requests per minute.',
    path: (p) => `src/http/rate-limit.${p.ext}`,
    test: (p) => `test/rate-limit.test.${p.ext}`,
    code: 'export function rateLimit(bucket) { return (req, res, next) => bucket.take(req.key) ? next() : res.status(429).end(); }',
  },
  {
    what: 'retry helper with exponential backoff',
    para: ['the code that retries failed calls', 'backoff retries implemented', 'retrying logic'],
    detail: 'Retries up to 5 times, doubling the delay with jitter.',
    path: (p) => `src/lib/retry.${p.ext}`,
    test: (p) => `test/retry.test.${p.ext}`,
    code: 'export async function withRetry(fn, tries = 5) { for (let i = 0; ; i++) { try { return await fn(); } catch (e) { if (i >= tries) throw e; await sleep(2 ** i * 100 + Math.random() * 50); } } }',
  },
  {
    what: 'price formatting utility',
    para: ['the function that formats amounts with currency', 'money formatting', 'how prices get displayed'],
    detail: 'Uses Intl.NumberFormat with the account currency.',
    path: (p) => `src/lib/format-price.${p.ext}`,
    test: (p) => `test/format-price.test.${p.ext}`,
    code: "export const formatPrice = (cents, currency) => new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);",
  },
  {
    what: 'database migrations folder',
    para: ['the schema migration scripts', 'migration files for the database', 'where schema migrations are'],
    detail: 'Numbered SQL files applied in order at start.',
    path: (p) => `db/migrations/0042_add_orders_index.${p.ext === 'py' ? 'py' : 'sql'}`,
    test: (p) => `test/migrations.test.${p.ext}`,
    code: 'create index concurrently orders_customer_created on orders (customer_id, created_at desc);',
  },
  {
    what: 'feature flag definitions',
    para: ['the list of feature flags', 'where flags are declared', 'flag names and defaults'],
    detail: 'Every flag has an owner and an expiry date.',
    path: (p) => `src/flags/definitions.${p.ext}`,
    test: (p) => `test/flags.test.${p.ext}`,
    code: "export const FLAGS = { newCheckout: { owner: 'payments', default: false, expires: '2025-09-01' } };",
  },
  {
    what: 'webhook signature check',
    para: ['verifying incoming webhook signatures', 'the HMAC validation of webhooks', 'checking webhook callbacks are authentic'],
    detail: 'HMAC-SHA256 over the raw body with the shared secret, constant-time compare.',
    path: (p) => `src/webhooks/verify-signature.${p.ext}`,
    test: (p) => `test/webhooks-verify.test.${p.ext}`,
    code: "const expected = createHmac('sha256', secret).update(raw).digest('hex'); return timingSafeEqual(Buffer.from(expected), Buffer.from(sig));",
  },
  {
    what: 'environment config loader',
    para: ['where env variables are read and validated', 'config parsing at startup', 'the settings loader'],
    detail: 'Parses process env with zod; fails fast on a missing variable.',
    path: (p) => `src/config/env.${p.ext}`,
    test: (p) => `test/config.test.${p.ext}`,
    code: 'export const env = z.object({ DATABASE_URL: z.string().url(), PORT: z.coerce.number().default(3000) }).parse(process.env);',
  },
  {
    what: 'pagination cursor encoding',
    para: ['how page cursors are built', 'cursor based paging', 'the next-page token format'],
    detail: 'Base64url of the last id and timestamp.',
    path: (p) => `src/lib/cursor.${p.ext}`,
    test: (p) => `test/cursor.test.${p.ext}`,
    code: "export const encodeCursor = (id, at) => Buffer.from(JSON.stringify([id, at])).toString('base64url');",
  },
  {
    what: 'health check endpoint',
    para: ['the health probe route', 'what kubernetes pings to check health', 'the readiness health endpoint'],
    detail: 'Checks the database and Redis with a 500 ms budget.',
    path: (p) => `src/http/health.${p.ext}`,
    test: (p) => `test/health.test.${p.ext}`,
    code: "app.get('/healthz', async () => ({ db: await pingDb(), redis: await pingRedis() }));",
  },
  {
    what: 'CSV export of orders',
    para: ['downloading orders as csv', 'exporting orders to csv', 'order export'],
    detail: 'Streams rows in batches of 1,000 to keep memory flat.',
    path: (p) => `src/orders/export-csv.${p.ext}`,
    test: (p) => `test/orders-export.test.${p.ext}`,
    code: "for await (const batch of orders.batches(1000)) stream.write(batch.map(toCsvLine).join('\\n'));",
  },
  {
    what: 'Terraform module for the VPC',
    para: ['the vpc network definition in terraform', 'where vpc subnets are defined', 'the vpc infrastructure code'],
    detail: 'Three private and three public subnets over three zones.',
    path: () => 'infra/modules/vpc/main.tf',
    test: () => 'infra/modules/vpc/README.md',
    code: 'module "vpc" { source = "terraform-aws-modules/vpc/aws" cidr = "10.0.0.0/16" azs = ["eu-west-1a", "eu-west-1b", "eu-west-1c"] }',
  },
  {
    what: 'i18n message catalog',
    para: ['i18n translation strings', 'where translated messages live', 'the localization message files'],
    detail: 'One JSON per locale, keys grouped by screen.',
    path: () => 'src/i18n/messages/en.json',
    test: (p) => `test/i18n.test.${p.ext}`,
    code: '{ "checkout.pay": "Pay now", "checkout.total": "Total: {amount}" }',
  },
];

interface Task {
  content: (p: Project) => string;
  done: (p: Project) => string;
  para: string[];
}
export const TASKS: Task[] = [
  {
    content: (p) => `Fix the flaky checkout end-to-end test in ${p.name} CI`,
    done: (p) => `Quarantine the checkout e2e test in ${p.name}`,
    para: ['the unreliable checkout test', 'flaky tests in checkout', 'checkout e2e failing randomly'],
  },
  {
    content: () => 'Rotate the Stripe API keys before the audit',
    done: () => 'Move Stripe keys into the secrets manager',
    para: ['rotating the stripe credentials', 'stripe key rotation', 'changing the payment keys'],
  },
  {
    content: () => 'Add an index on orders.customer_id',
    done: () => 'Analyze slow orders queries',
    para: ['indexing orders by customer', 'the slow customer orders query', 'missing index for customer lookups'],
  },
  {
    content: () => 'Write the runbook for database failover',
    done: () => 'Test database failover on staging',
    para: ['documenting failover of the db', 'a failover guide', 'runbook for when the database goes down'],
  },
  { content: () => 'Remove the deprecated v1 export endpoint', done: () => 'Announce the v1 export deprecation', para: ['dropping the old export api', 'deleting the legacy export route', 'v1 export removal'] },
  { content: () => 'Upgrade React Native to 0.74', done: () => 'Check React Native 0.74 changelog', para: ['bumping react native', 'the react-native upgrade', 'moving to a newer react native'] },
  {
    content: () => 'Set up alerts for the payment webhook failures',
    done: () => 'Graph payment webhook failures',
    para: ['alerting when payment callbacks fail', 'monitoring stripe webhooks', 'notifications for failed payment hooks'],
  },
  {
    content: () => 'Translate the onboarding emails into German',
    done: () => 'Extract onboarding email strings',
    para: ['german onboarding mails', 'localizing welcome emails', 'onboarding emails translation'],
  },
  { content: () => 'Cap the image upload size at 10 MB', done: () => 'Measure image upload sizes', para: ['limiting upload size for pictures', 'max size of uploaded images', 'rejecting huge image uploads'] },
  {
    content: () => 'Delete inactive user accounts after two years (GDPR)',
    done: () => 'List inactive user accounts',
    para: ['purging old accounts for gdpr', 'data retention for inactive users', 'removing dormant users'],
  },
  {
    content: () => 'Make the nightly backup job verify restores',
    done: () => 'Schedule the nightly backup job',
    para: ['checking that backups can be restored', 'testing backup restores', 'verifying the nightly backups'],
  },
  {
    content: () => 'Split the monolithic settings page into tabs',
    done: () => 'Sketch the settings page tabs',
    para: ['reorganizing the settings screen', 'tabs on the preferences page', 'settings UI cleanup'],
  },
  { content: () => 'Add dark mode to the dashboard', done: () => 'Collect dark mode colors', para: ['a dark theme for the dashboard', 'night mode', 'dark colour scheme support'] },
  {
    content: () => 'Replace the cron on the VM with a scheduled job in Kubernetes',
    done: () => 'Inventory the cron entries on the VM',
    para: ['moving cron jobs to k8s', 'scheduled tasks on the old server', 'kubernetes cronjobs migration'],
  },
  { content: () => 'Document the public API error codes', done: () => 'List every API error code', para: ['docs for api errors', 'explaining error codes to partners', 'error code reference'] },
];

interface JaFact {
  kind: 'session' | 'sheet' | 'solution' | 'todo';
  title: string;
  body: string;
  error?: string;
  files?: string[];
  questions: string[];
  distractor?: { title: string; body: string };
}
export const JA_FACTS: JaFact[] = [
  {
    kind: 'session',
    title: '認証ミドルウェアをjoseに移行',
    body: 'jsonwebtokenがエッジランタイムで動かないため、トークン検証をjoseのjwtVerifyに置き換えた。src/auth/middleware.tsを修正。',
    files: ['src/auth/middleware.ts'],
    questions: ['認証の移行はなぜ？', 'トークン検証に何を使っている？'],
    distractor: { title: '認可ルールの見直し', body: '管理画面の権限チェックを整理した。トークンは変更なし。' },
  },
  {
    kind: 'session',
    title: '決済プロバイダをStripeからPAY.JPへ変更',
    body: '国内カードの承認率が低かったため、決済をPAY.JPに切り替えた。手数料も下がった。',
    questions: ['決済サービスを変えた理由は', 'どの決済代行を使っている？'],
  },
  {
    kind: 'session',
    title: '在庫数の同期ジョブを5分間隔に変更',
    body: '倉庫システムとの在庫同期を15分から5分間隔にした。売り越しが発生していたため。',
    questions: ['在庫の同期間隔は？', '売り越し対策で何をした'],
    distractor: { title: '在庫画面の表示速度改善', body: '在庫一覧にページングを追加した。同期には触れていない。' },
  },
  {
    kind: 'session',
    title: '配送料の計算ロジックを修正',
    body: '離島への配送料が0円になる不具合を修正。都道府県コードの判定漏れが原因。src/shipping/fee.ts',
    files: ['src/shipping/fee.ts'],
    questions: ['離島の送料がおかしかった件', '配送料はどこで計算している？'],
  },
  {
    kind: 'session',
    title: '商品検索を全文検索に変更',
    body: 'LIKE検索が遅いので、商品検索をPostgreSQLの全文検索に移した。カタカナの表記ゆれも吸収。',
    questions: ['商品検索が遅い問題はどう解決した', '検索の仕組みは？'],
  },
  {
    kind: 'session',
    title: 'メール配信をSendGridからAmazon SESへ',
    body: '迷惑メール判定が多かったため、注文確認メールをSESに切り替えた。DKIMも設定済み。',
    questions: ['注文確認メールの送信サービスは', 'メールが迷惑メールに入る件'],
  },
  {
    kind: 'session',
    title: 'ポイント付与のバッチを夜間に移動',
    body: '日中の負荷を下げるため、ポイント付与のバッチ処理を深夜2時に実行するようにした。',
    questions: ['ポイントはいつ付与される？', 'バッチ処理の実行時刻'],
  },
  { kind: 'session', title: 'クーポンの重複利用を防止', body: '同じクーポンが二重に使われる問題を、注文テーブルの一意制約で防いだ。', questions: ['クーポンが二回使えてしまう問題', 'クーポン重複の対策'] },
  {
    kind: 'session',
    title: '画像をWebPに変換して配信',
    body: '商品画像をWebPに変換してCDNから配信するようにした。ページの読み込みが40%速くなった。',
    questions: ['商品画像の形式は？', 'ページ表示を速くした方法'],
  },
  { kind: 'session', title: 'ログイン画面に二段階認証を追加', body: '管理者アカウントにTOTPの二段階認証を必須にした。', questions: ['二段階認証は入っている？', '管理者のログインを強化した件'] },
  { kind: 'session', title: 'Node.jsを20に更新', body: 'shop-jpの実行環境をNode 18からNode 20に上げた。18のサポート終了のため。', questions: ['shop-jpのNodeのバージョンは', 'ランタイムの更新理由'] },
  {
    kind: 'session',
    title: 'キャッシュの有効期限を1時間に延長',
    body: '商品一覧のキャッシュを10分から1時間にした。価格は1時間ごとにしか変わらないため。',
    questions: ['キャッシュはどのくらい保持される？', '商品一覧のキャッシュ期限'],
  },
  { kind: 'session', title: '注文番号の採番をシーケンスに変更', body: '同時注文で注文番号が重複したため、採番をデータベースのシーケンスに変えた。', questions: ['注文番号が重複した件', '採番方法'] },
  { kind: 'session', title: '会員登録フォームの住所入力を郵便番号検索に', body: '郵便番号から住所を自動入力するようにした。入力ミスが減った。', questions: ['住所の自動入力', '郵便番号から住所を埋める機能'] },
  {
    kind: 'sheet',
    title: '引き継ぎ: shop-jp 定期購入',
    body: '要約: 定期購入の次回配送日の計算を実装。次の作業: 解約フローの実装、通知メールの文面確認。メモ: 月末の扱いに注意。',
    questions: ['定期購入の引き継ぎ内容', '解約フローはまだ？'],
  },
  {
    kind: 'sheet',
    title: '引き継ぎ: shop-jp 管理画面',
    body: '要約: 管理画面の売上レポートをCSV出力できるようにした。次の作業: 期間指定の追加。メモ: 文字コードはShift_JIS。',
    questions: ['売上レポートの出力形式', 'CSVの文字コードは'],
  },
  {
    kind: 'sheet',
    title: '引き継ぎ: shop-jp 検索改善',
    body: '要約: 同義語辞書を追加。次の作業: 検索ログから辞書を育てる。メモ: ひらがなとカタカナの揺れ。',
    questions: ['同義語辞書の今後', '検索の表記ゆれ対策の続き'],
  },
  {
    kind: 'solution',
    title: 'CSV取り込みで文字化け',
    error: "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x82 in position 0",
    body: '取引先のCSVはShift_JIS。encoding="cp932"で読み込む。',
    questions: ['CSVの取り込みで文字化けする', 'UnicodeDecodeError 0x82 取り込み'],
  },
  {
    kind: 'solution',
    title: 'タイムゾーンがずれて日付が一日前になる',
    error: 'RangeError: Invalid time value',
    body: 'サーバーはUTC。表示時にAsia/Tokyoへ変換する。日付だけの値はDateにしない。',
    questions: ['日付が一日ずれる', '日本時間の変換'],
  },
  {
    kind: 'solution',
    title: '決済APIがタイムアウトする',
    error: 'Error: timeout of 5000ms exceeded',
    body: '月末は決済代行の応答が遅い。タイムアウトを20秒にして、冪等キーで再試行する。',
    questions: ['決済がタイムアウトする時の対処', '決済 再試行 冪等'],
  },
  { kind: 'solution', title: '郵便番号APIが429を返す', error: 'HTTP 429 Too Many Requests', body: '無料APIの制限。結果を一日キャッシュする。', questions: ['郵便番号検索が429になる', '住所検索APIの制限'] },
  { kind: 'todo', title: '返品受付フォームを作る', body: '', questions: ['返品の受付はどうなってる？', '返品フォームの作業'] },
  { kind: 'todo', title: '配送業者の追跡番号を注文詳細に表示する', body: '', questions: ['追跡番号の表示', '荷物の追跡を見せる作業'] },
  { kind: 'todo', title: 'ギフト包装のオプションを追加', body: '', questions: ['ギフト包装は対応予定？', 'ラッピングのオプション'] },
  { kind: 'todo', title: '消費税の端数処理を確認する', body: '', questions: ['消費税の丸め', '税の端数'] },
  { kind: 'todo', title: 'アクセシビリティの監査を受ける', body: '', questions: ['アクセシビリティ対応の予定', '監査'] },
  { kind: 'session', title: '中文商品说明的显示修复', body: '商品详情页的中文说明出现乱码，原因是字体缺失。已添加思源黑体。', questions: ['中文说明乱码', '字体问题怎么解决的'] },
  { kind: 'session', title: '한국어 배송 안내 추가', body: '한국 고객을 위해 배송 안내 페이지를 한국어로 번역했다.', questions: ['한국어 배송 안내', '배송 안내 번역'] },
];

export const FILLER_VERBS = ['Refactored', 'Reviewed', 'Cleaned up', 'Documented', 'Renamed', 'Tested', 'Profiled', 'Simplified', 'Paired on', 'Split'];
export const FILLER_THINGS = [
  'user profile page',
  'order list',
  'admin dashboard',
  'invoice template',
  'signup form',
  'password reset flow',
  'product catalog',
  'shopping cart',
  'notification settings',
  'audit log',
  'team invitations',
  'billing page',
  'API docs',
  'onboarding wizard',
  'file uploads',
  'search results page',
  'analytics events',
  'report scheduler',
  'customer import',
  'tax calculation',
  'shipping labels',
  'refund handling',
  'coupon codes',
  'sitemap generator',
  'error pages',
  'email templates',
  'session timeout',
  'avatar upload',
  'CSV download',
  'webhook settings',
  'API key page',
  'access roles',
  'release notes',
  'status page',
  'query builder',
  'chart widgets',
  'date pickers',
  'table sorting',
  'form validation',
  'color tokens',
];

export const NO_ANSWER = [
  'how do we deploy to the mainframe',
  'which GraphQL federation gateway do we use',
  'why did we adopt Elixir for the chat service',
  'where is the COBOL batch job',
  'what is the SLA for the fax gateway',
  'who approved the blockchain ledger',
  'how are Kafka Streams state stores backed up',
  'which Rust crate parses the XML feeds',
  'where is the Unity game client',
  'why did we choose Cassandra',
  'how do we shard MongoDB',
  'what does the Fortran solver compute',
  'where are the Ansible playbooks for Solaris',
  'which Haskell library handles the pricing DSL',
  'how is the Zookeeper quorum sized',
  'what is the bluetooth pairing flow',
  'where do we configure Varnish ESI',
  'why was Erlang rejected for the gateway',
  'how does the smart TV app authenticate',
  'which CDN serves the podcast feed',
  'what is the retention of the voicemail archive',
  'where is the OCaml type checker plugin',
  'how do we calibrate the barcode scanner',
  'which satellite provider do we use',
  'where is the VR showroom code',
  'ファックス送信の設定はどこ',
  'ブロックチェーンの導入理由',
  'メインフレームへの接続方法',
  '衛星通信の契約',
  'VRショールームの進捗',
];
