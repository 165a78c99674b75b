import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import { PermanentError, TransientError, Worker, sign } from '../src/index.js';
import { KEY, engine, startRedis } from './redis-server.js';

/** No test may hang the build: each fails after this. */
const LIMIT = { timeout: 20_000 };
let redis;
before(async () => { redis = await startRedis(); }, { timeout: 30_000 });
after(async () => { await redis?.stop(); });

function worker(type, options = {}) {
  return new Worker({ redis: redis.url, type, key: KEY, blockMs: 100, logger: { warn() {}, error() {} }, ...options });
}

function typeName() {
  return `t_${randomUUID().slice(0, 8)}`;
}

test('completes a token with its output in a signed signal, then acknowledges it', LIMIT, async () => {
  const type = typeName();
  const w = worker(type).handle(async (task) => ({ greeting: `hello ${task.input.name}`, attempt: task.attempt }));
  await w.start();
  const flow = engine(redis.admin, type);
  const run = randomUUID();
  const { token } = await flow.send(run, { name: 'Ada' });
  const done = await flow.signal(token);
  assert.equal(done.status, 'completed');
  assert.deepEqual(JSON.parse(done.output), { greeting: 'hello Ada', attempt: 1 });
  assert.equal(done.run, run);
  assert.equal(done.node, 'work');
  assert.equal(done.key, KEY.id);
  const { sig, ...unsigned } = done;
  const { key, signed_at: signedAt, ...fields } = unsigned;
  assert.equal(sign(fields, key, KEY.secret, Number(signedAt)).sig, sig, 'the signature verifies');
  await waitFor(async () => (await flow.pending()) === 0);
  await w.stop();
});

test('failures carry their kind and code, and the attempt they belong to', LIMIT, async () => {
  const type = typeName();
  const w = worker(type, { concurrency: 3 }).handle(async (task) => {
    if (task.input.fail === 'transient') throw new TransientError('busy', { code: 'busy' });
    if (task.input.fail === 'permanent') throw new PermanentError('bad input', { code: 'bad_input' });
    throw new Error('surprise');
  });
  await w.start();
  const flow = engine(redis.admin, type);
  const transient = await flow.send(randomUUID(), { fail: 'transient' }, { attempt: '2' });
  const permanent = await flow.send(randomUUID(), { fail: 'permanent' });
  const other = await flow.send(randomUUID(), { fail: 'other' });
  const errorOf = async (token) => (await flow.signal(token));
  const t = await errorOf(transient.token);
  assert.equal(t.status, 'failed');
  assert.deepEqual(JSON.parse(t.error), { message: 'busy', kind: 'transient', code: 'busy' });
  assert.equal(t.attempt, '2');
  assert.deepEqual(JSON.parse((await errorOf(permanent.token)).error),
    { message: 'bad input', kind: 'permanent', code: 'bad_input' });
  assert.deepEqual(JSON.parse((await errorOf(other.token)).error),
    { message: 'surprise', kind: 'transient', code: 'worker_error' });
  await w.stop();
});

test('a slow task sends heartbeats and keeps its entry', LIMIT, async () => {
  const type = typeName();
  const w = worker(type, { heartbeatMs: 100 }).handle(async () => {
    await sleep(450);
    return { slow: true };
  });
  await w.start();
  const flow = engine(redis.admin, type);
  const { token } = await flow.send(randomUUID(), {});
  const beat = await flow.signal(token, 'heartbeat');
  assert.equal(beat.worker, w.consumer);
  assert.ok(beat.sig);
  assert.equal((await flow.signal(token)).status, 'completed');
  await w.stop();
});

test('an entry another worker left pending is taken over and completed', LIMIT, async () => {
  const type = typeName();
  const flow = engine(redis.admin, type);
  await redis.admin.xgroup('CREATE', flow.tasks, flow.group, '0', 'MKSTREAM');
  const { token } = await flow.send(randomUUID(), { n: 1 });
  await redis.admin.xreadgroup('GROUP', flow.group, 'died', 'COUNT', 1, 'STREAMS', flow.tasks, '>');
  const w = worker(type, { claimIdleMs: 300 }).handle(async (task) => task.input);
  await w.start();
  assert.deepEqual(JSON.parse((await flow.signal(token)).output), { n: 1 });
  await waitFor(async () => (await flow.pending()) === 0);
  await w.stop();
});

test('a run announced as ended aborts its task, which is acknowledged without a completion', LIMIT, async () => {
  const type = typeName();
  let aborted = false;
  const w = worker(type).handle((task, ctx) => new Promise((resolve, reject) => {
    ctx.signal.addEventListener('abort', () => { aborted = true; reject(ctx.signal.reason); });
  }));
  await w.start();
  const flow = engine(redis.admin, type);
  const run = randomUUID();
  const { token } = await flow.send(run, {});
  await waitFor(async () => w.running.size === 1);
  await redis.admin.publish('wf.runs.ended', run);
  await waitFor(async () => (await flow.pending()) === 0);
  assert.ok(aborted);
  await assert.rejects(flow.signal(token, undefined, 300));
  await w.stop();
});

test('stop waits for the running task, then closes', LIMIT, async () => {
  const type = typeName();
  const w = worker(type).handle(async () => {
    await sleep(300);
    return { finished: true };
  });
  await w.start();
  const flow = engine(redis.admin, type);
  const { token } = await flow.send(randomUUID(), {});
  await waitFor(async () => w.running.size === 1);
  await w.stop({ timeoutMs: 5_000 });
  assert.equal((await flow.signal(token, undefined, 100)).status, 'completed');
  assert.equal(await flow.pending(), 0);
});

test('never runs more than concurrency tasks at once', LIMIT, async () => {
  const type = typeName();
  let now = 0;
  let most = 0;
  const w = worker(type, { concurrency: 2 }).handle(async () => {
    now += 1;
    most = Math.max(most, now);
    await sleep(120);
    now -= 1;
    return {};
  });
  await w.start();
  const flow = engine(redis.admin, type);
  const tokens = [];
  for (let i = 0; i < 6; i += 1) tokens.push((await flow.send(randomUUID(), { i })).token);
  for (const token of tokens) await flow.signal(token);
  assert.equal(most, 2);
  await w.stop();
});

test('works as a Redis user holding only the ACL rules of docs/worker-protocol.md §7', LIMIT, async () => {
  const type = typeName();
  const rules = ['resetkeys', 'resetchannels', '-@all', '+hello', '+auth', '+ping', '+select', '+client|setname',
    '+cluster|nodes', '+cluster|slots', '+cluster|shards', '+xgroup|create', '+xreadgroup', '+xack', '+xautoclaim',
    '+xclaim', '+xpending', '+xadd', '+subscribe', '+unsubscribe', `~wf.tasks.${type}:*`, '%W~wf.completions:*',
    '&wf.runs.ended'];
  await redis.admin.call('ACL', 'SETUSER', `w-${type}`, 'on', '>pw-12345', ...rules);
  const w = worker(type, { redis: `redis://w-${type}:pw-12345@127.0.0.1:${redis.port}/0`, heartbeatMs: 100 })
    .handle(async () => {
      await sleep(250);
      return { confined: true };
    });
  await w.start();
  const flow = engine(redis.admin, type);
  const { token } = await flow.send(randomUUID(), {});
  assert.deepEqual(JSON.parse((await flow.signal(token)).output), { confined: true });
  await waitFor(async () => (await flow.pending()) === 0);
  await w.stop();
});

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition, ms = 5_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await condition()) return;
    await sleep(20);
  }
  throw new Error(`Expected the condition within ${ms} ms`);
}
