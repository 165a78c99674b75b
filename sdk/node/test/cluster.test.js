import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

import { Worker } from '../src/index.js';
import { KEY, engine, quietLogger, record, startRedis, waitFor, workerAcl } from './helpers.js';

let redis;
before(async () => { redis = await startRedis({ cluster: true }); }, { timeout: 30_000 });
after(async () => { await redis?.stop(); });

test('on a Redis Cluster, as a user of the §7 rules: every shard, each completion on its own shard', { timeout: 20_000 }, async () => {
  const type = `t_${randomUUID().slice(0, 8)}`;
  const user = `w-${type}`;
  await redis.admin.call('ACL', 'SETUSER', user, 'on', '>pw-12345', ...workerAcl(type));
  await redis.admin.call('ACL', 'LOG', 'RESET');
  // lazyConnect: the worker only duplicates this client, which never connects itself
  const cluster = new Redis.Cluster([{ host: '127.0.0.1', port: redis.port }],
    { lazyConnect: true, redisOptions: { username: user, password: 'pw-12345' } });
  const w = new Worker({ redis: cluster, type, shards: 2, concurrency: 2, key: KEY, blockMs: 100, logger: quietLogger() })
    .handle(async (task, ctx) => {
      if (task.input.wait) return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(null)));
      return { shard: task.input.shard };
    });
  try {
    await w.start();
    const shards = [engine(redis.admin, type, 0), engine(redis.admin, type, 1)];
    for (const [n, flow] of shards.entries()) {
      const { token } = await flow.send(randomUUID(), { shard: n });
      const done = await flow.signal(token);
      assert.deepEqual(JSON.parse(done.output), { shard: n }, `the completion of shard ${n} is on wf.completions:{${n}}`);
    }
    const run = randomUUID();
    const { token } = await shards[1].send(run, { wait: true });
    await waitFor(async () => w.running.size === 1);
    await redis.admin.publish('wf.runs.ended', run);
    for (const flow of shards) await waitFor(async () => (await flow.pending()) === 0);
    assert.deepEqual((await shards[1].signals(token)).filter((s) => s.status), []);
  } finally {
    await w.stop({ timeoutMs: 2_000 });
  }
  assert.equal(cluster.status, 'wait', 'the given client was left alone');
  assert.deepEqual(w.log.said, []);
  assert.deepEqual((await redis.admin.call('ACL', 'LOG')).map(record), [], 'no command was refused (ACL LOG)');
});
