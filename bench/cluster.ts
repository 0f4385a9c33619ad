/**
 * N server processes behind one address, for `npm run bench -- --processes=N`: a node:cluster
 * primary forks N times what `npm start` runs (build/main.js serve, with its node flags), and the
 * workers' listen on PORT is shared through the primary, which hands each new connection to the
 * next worker in turn (round-robin, Node's default on Linux). Chosen over a TCP proxy because the
 * primary touches a connection once, when it is accepted (the load generator keeps its 50
 * connections open), where a proxy would copy every byte of every request through a third process
 * competing for the same cores. Answers 200 on CLUSTER_READY_PORT once every worker listens; a
 * worker that dies ends the run (exit 1); SIGINT or SIGTERM stops the workers, then the primary.
 * Run as a child process by bench/run.ts.
 */
import cluster, { type Worker } from 'node:cluster';
import http from 'node:http';

const count = Number(process.env.CLUSTER_PROCESSES ?? 2);
const execArgv = JSON.parse(process.env.CLUSTER_EXEC_ARGV ?? '[]') as string[];
cluster.setupPrimary({ exec: 'build/main.js', args: ['serve'], execArgv });

let listening = 0;
let stopping = false;
const workers: Worker[] = [];
for (let i = 0; i < count; i++) {
  const w = cluster.fork();
  workers.push(w);
  w.once('listening', () => listening++);
  w.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`cluster: worker ${w.process.pid} exited (${signal ?? code}); stopping\n`);
    stop(1);
  });
}

const ready = http
  .createServer((_req, res) => {
    res.writeHead(listening === count ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ listening, of: count, pids: workers.map((w) => w.process.pid) }));
  })
  .listen(Number(process.env.CLUSTER_READY_PORT), '127.0.0.1');

function stop(code: number) {
  stopping = true;
  ready.close();
  let left = workers.filter((w) => !w.isDead()).length;
  if (left === 0) process.exit(code);
  for (const w of workers) {
    if (w.isDead()) continue;
    w.once('exit', () => --left === 0 && process.exit(code));
    w.process.kill('SIGINT');
  }
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
