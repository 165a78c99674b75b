import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';

/** A real redis-server of the test's own on a free port, without persistence; `stop()` ends it. */
export async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tokenflow-sdk-'));
  const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] });
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
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const admin = new Redis({ port, maxRetriesPerRequest: 3 });
  await admin.ping();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    admin,
    async stop() {
      admin.disconnect();
      server.kill('SIGKILL');
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

/** The engine's side, in raw commands: tokens out, completions in. */
export function engine(redis, type) {
  const tasks = `wf.tasks.${type}:{0}`;
  const group = `wf.workers.${type}`;
  return {
    tasks,
    group,
    async send(run, input, extra = {}) {
      const token = `tok-${Math.random().toString(36).slice(2, 12)}`;
      const fields = { token, run, node: 'work', type, iteration: '0', attempt: '1', input: JSON.stringify(input),
        config: '{}', emitted_at: String(Date.now()), ...extra };
      const id = await redis.xadd(tasks, '*', ...Object.entries(fields).flat());
      return { token, id };
    },
    /** The next signal of `kind` (completion when none) for the token, waiting up to `ms`. */
    async signal(token, kind = undefined, ms = 5_000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const entries = await redis.xrange('wf.completions:{0}', '-', '+');
        for (const [, flat] of entries) {
          const fields = Object.fromEntries(flat.reduce((pairs, v, i) => (i % 2 ? pairs[pairs.length - 1].push(v)
            : pairs.push([v]), pairs), []));
          if (fields.token === token && fields.kind === kind) return fields;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`Expected a ${kind ?? 'completion'} signal for ${token} within ${ms} ms, but none came`);
    },
    async pending() {
      const [count] = await redis.xpending(tasks, group);
      return Number(count);
    },
  };
}

export const KEY = { id: 'wk_0123456789abcdef', secret: 's3cr3t-é-🔑' };
