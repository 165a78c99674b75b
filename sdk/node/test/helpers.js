import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before } from 'node:test';
import Redis from 'ioredis';

import { Worker } from '../src/index.js';

/** No test may hang the build: each fails after this. */
export const LIMIT = { timeout: 20_000 };

export const KEY = { id: 'wk_0123456789abcdef', secret: 's3cr3t-é-🔑' };

/** docs/worker-protocol.md, whose §6 snippet is the reference signature and §7 the ACL rules. */
export const PROTOCOL = new URL('../../../docs/worker-protocol.md', import.meta.url);

let documented;
/** The `sign` of the Node snippet of docs/worker-protocol.md §6, run as written there. */
export async function documentedSign() {
  if (!documented) {
    const doc = readFileSync(PROTOCOL, 'utf8');
    const snippet = doc.split('<!-- snippet: sign.mjs -->')[1].split('```js')[1].split('```')[0];
    const file = join(mkdtempSync(join(tmpdir(), 'tokenflow-sign-')), 'sign.mjs');
    writeFileSync(file, snippet);
    try {
      documented = (await import(pathToFileURL(file))).sign;
    } finally {
      rmSync(dirname(file), { recursive: true, force: true });
    }
  }
  return documented;
}

/** The ACL rules of docs/worker-protocol.md §7 (RedisKeys.workerAcl) for the workers of `type`, as a command's arguments. */
export function workerAcl(type) {
  const doc = readFileSync(PROTOCOL, 'utf8');
  const example = /ACL SETUSER geocode-workers on >a-long-password ([^`]+?)\n```/.exec(doc);
  if (!example) throw new Error('Expected the ACL SETUSER example in docs/worker-protocol.md §7');
  return example[1].split(/\s+/).filter(Boolean).map((rule) => rule.replaceAll('geocode', type));
}

/**
 * A real redis-server of the test's own on a free port, without persistence; `stop()` ends it. With `cluster`, a
 * one-node Redis Cluster holding every slot.
 */
export async function startRedis({ cluster = false } = {}) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tokenflow-sdk-'));
  const binary = process.env.REDIS_SERVER ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server');
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  if (cluster) args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'),
    '--cluster-announce-ip', '127.0.0.1');
  const server = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  server.stdout.on('data', (chunk) => { said += chunk; });
  server.stderr.on('data', (chunk) => { said += chunk; });
  // connect only once it listens: an ioredis connect() whose first attempt failed may never settle
  const until = Date.now() + 15_000;
  while (!(await listening(port))) {
    if (Date.now() > until || server.exitCode !== null) {
      server.kill('SIGKILL');
      throw new Error(`Expected redis-server to listen on port ${port} within 15 s, but it did not: ${said}`);
    }
    await sleep(50);
  }
  const admin = new Redis({ port, maxRetriesPerRequest: 3 });
  await admin.ping();
  if (cluster) {
    await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    while (!(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok')) {
      if (Date.now() > until) throw new Error('Expected the one-node cluster to be ok within 15 s, but it was not');
      await sleep(50);
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    admin,
    async stop() {
      admin.disconnect();
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function listening(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The engine's side of shard `shard`, in raw commands: tokens out, completions in. */
export function engine(redis, type, shard = 0) {
  const tasks = `wf.tasks.${type}:{${shard}}`;
  const completions = `wf.completions:{${shard}}`;
  const group = `wf.workers.${type}`;
  return {
    tasks,
    group,
    completions,
    async send(run, input, extra = {}) {
      const token = `tok-${Math.random().toString(36).slice(2, 12)}`;
      const fields = { token, run, node: 'work', type, iteration: '0', attempt: '1', input: JSON.stringify(input),
        config: '{}', emitted_at: String(Date.now()), ...extra };
      const id = await redis.xadd(tasks, '*', ...Object.entries(fields).filter(([, v]) => v !== undefined).flat());
      return { token, id };
    },
    /** The next signal of `kind` (completion when none) for the token, waiting up to `ms`. */
    async signal(token, kind = undefined, ms = 5_000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const found = (await this.signals(token)).find((fields) => fields.kind === kind);
        if (found) return found;
        await sleep(20);
      }
      throw new Error(`Expected a ${kind ?? 'completion'} signal for ${token} within ${ms} ms, but none came`);
    },
    /** How many entries of the group are pending (read, not acknowledged). */
    async pending() {
      const [count] = await redis.xpending(tasks, group);
      return Number(count);
    },
    /** Whether the group has been given the entry `id` and holds nothing pending. */
    async delivered(id) {
      const info = (await redis.xinfo('GROUPS', tasks)).map(record).find((g) => g.name === group);
      return info?.['last-delivered-id'] === id && Number(info.pending) === 0;
    },
    /** Every signal for the token, in stream order. */
    async signals(token) {
      return (await redis.xrange(completions, '-', '+')).map(([, flat]) => record(flat)).filter((f) => f.token === token);
    },
  };
}

export function record(flat) {
  const fields = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return fields;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitFor(condition, ms = 5_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await condition()) return;
    await sleep(20);
  }
  throw new Error(`Expected the condition within ${ms} ms`);
}

/** A logger that keeps what it is told, for tests that expect silence. */
export function quietLogger() {
  const said = [];
  return { said, warn: (m) => said.push(`warn: ${m}`), error: (m) => said.push(`error: ${m}`) };
}

/**
 * The set-up of a test file whose tests run workers against one redis-server: `redis` (filled in before the first test)
 * and `worker(type, options)`, a worker of the test key that is stopped after the file's tests if a failed test left it.
 */
export function workerSuite() {
  const redis = {};
  const workers = [];
  before(async () => { Object.assign(redis, await startRedis()); }, { timeout: 30_000 });
  after(async () => {
    await Promise.allSettled(workers.map((w) => w.stop({ timeoutMs: 0 })));
    await redis.stop?.();
  });
  function worker(type, options = {}) {
    const w = new Worker({ redis: redis.url, type, key: KEY, blockMs: 100, logger: quietLogger(), ...options });
    workers.push(w);
    return w;
  }
  return { redis, worker };
}

/** A node type name of the test's own. */
export function typeName() {
  return `t_${randomUUID().slice(0, 8)}`;
}
