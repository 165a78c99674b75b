import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { Worker } from '../src/index.js';
import { KEY, LIMIT, engine, sleep, typeName, waitFor, workerAcl, workerSuite } from './helpers.js';

const { redis, worker } = workerSuite();

test('the completion is added before the token is acknowledged', LIMIT, async () => {
  const type = typeName();
  const monitor = await redis.admin.monitor();
  const commands = [];
  monitor.on('monitor', (time, args) => {
    if (args[0].toLowerCase() === 'xadd' && args[1] === 'wf.completions:{0}') commands.push('xadd');
    if (args[0].toLowerCase() === 'xack' && args[1] === `wf.tasks.${type}:{0}`) commands.push('xack');
  });
  try {
    const w = worker(type).handle(async () => ({ ok: true }));
    await w.start();
    const flow = engine(redis.admin, type);
    const { token } = await flow.send(randomUUID(), {});
    await flow.signal(token);
    await waitFor(async () => commands.includes('xack'));
    assert.deepEqual(commands, ['xadd', 'xack']);
    assert.equal(await flow.pending(), 0);
    await w.stop();
  } finally {
    monitor.disconnect();
  }
});

test('a completion that cannot be added leaves the token pending, unacknowledged', LIMIT, async () => {
  const type = typeName();
  // the rules of §7 without +xadd: the completion is refused (NOPERM)
  const rules = workerAcl(type).filter((rule) => rule !== '+xadd');
  await redis.admin.call('ACL', 'SETUSER', `nox-${type}`, 'on', '>pw-12345', ...rules);
  let ran = 0;
  const w = worker(type, { redis: `redis://nox-${type}:pw-12345@127.0.0.1:${redis.port}/0`, startedAfterMs: null })
    .handle(async () => { ran += 1; return {}; });
  await w.start();
  const flow = engine(redis.admin, type);
  const { token } = await flow.send(randomUUID(), {});
  await waitFor(async () => ran === 1 && w.running.size === 0);
  assert.equal(await flow.pending(), 1);
  assert.deepEqual(await flow.signals(token), []);
  assert.match(w.log.said.join('\n'), /is left pending: NOPERM/);
  await w.stop();
});

test('stop gives up after its timeout: the task is aborted and left pending for another worker', LIMIT, async () => {
  const type = typeName();
  let aborted = false;
  const w = worker(type).handle((task, ctx) => new Promise((resolve, reject) => {
    ctx.signal.addEventListener('abort', () => { aborted = true; reject(ctx.signal.reason); });
  }));
  await w.start();
  const flow = engine(redis.admin, type);
  const { token } = await flow.send(randomUUID(), {});
  await waitFor(async () => w.running.size === 1);
  const began = Date.now();
  await w.stop({ timeoutMs: 200 });
  assert.ok(Date.now() - began < 1_500, `stopped in ${Date.now() - began} ms`);
  assert.ok(aborted);
  await sleep(50);
  assert.equal(await flow.pending(), 1);
  assert.deepEqual((await flow.signals(token)).filter((s) => s.status), []);
});

test('reads every shard, completes on the token\'s own shard, never exceeds concurrency, claims included', LIMIT, async () => {
  const type = typeName();
  const shards = [engine(redis.admin, type, 0), engine(redis.admin, type, 1)];
  const tokens = [];
  for (const flow of shards) {
    await redis.admin.xgroup('CREATE', flow.tasks, flow.group, '0', 'MKSTREAM');
    for (let i = 0; i < 2; i += 1) tokens.push([flow, (await flow.send(randomUUID(), { abandoned: i })).token]);
    await redis.admin.xreadgroup('GROUP', flow.group, 'died', 'COUNT', 2, 'STREAMS', flow.tasks, '>');
  }
  await sleep(150);
  let now = 0;
  let most = 0;
  const w = worker(type, { shards: 2, concurrency: 3, claimIdleMs: 100 }).handle(async (task) => {
    now += 1;
    most = Math.max(most, now);
    await sleep(60);
    now -= 1;
    return task.input;
  });
  await w.start();
  for (const flow of shards) {
    for (let i = 0; i < 5; i += 1) tokens.push([flow, (await flow.send(randomUUID(), { i })).token]);
  }
  for (const [flow, token] of tokens) assert.equal((await flow.signal(token)).status, 'completed');
  assert.equal(most, 3);
  for (const flow of shards) await waitFor(async () => (await flow.pending()) === 0);
  await w.stop();
});

test('a malformed token fails permanently; one without identifiers is acknowledged without a signal', LIMIT, async () => {
  const type = typeName();
  const w = worker(type).handle(async () => ({}));
  await w.start();
  const flow = engine(redis.admin, type);
  const { token } = await flow.send(randomUUID(), {}, { input: '{not json' });
  const failed = await flow.signal(token);
  assert.equal(failed.status, 'failed');
  assert.equal(JSON.parse(failed.error).kind, 'permanent');
  assert.equal(JSON.parse(failed.error).code, 'malformed_token');
  assert.equal(failed.attempt, '1');
  // an attempt the server would refuse is not echoed (the failure still reaches the run)
  const odd = await flow.send(randomUUID(), {}, { attempt: 'x' });
  const oddFailure = await flow.signal(odd.token);
  assert.equal(JSON.parse(oddFailure.error).code, 'malformed_token');
  assert.equal(oddFailure.attempt, undefined);
  const id = await redis.admin.xadd(flow.tasks, '*', 'run', randomUUID(), 'input', '{}');
  await waitFor(async () => flow.delivered(id));
  await w.stop();
});

test('input_ref: fetched through the API when given, else a permanent failure saying so', LIMIT, async () => {
  const type = typeName();
  const body = JSON.stringify({ big: 'x'.repeat(1000) });
  const hex = createHash('sha256').update(body).digest('hex');
  const seen = [];
  const api = createServer((req, res) => {
    seen.push([req.url, req.headers.authorization]);
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
  try {
    const flow = engine(redis.admin, type);
    const withApi = worker(type, { api: { url: `http://127.0.0.1:${api.address().port}`, token: 'tf_read' } })
      .handle(async (task) => ({ size: task.input.big.length }));
    await withApi.start();
    const { token } = await flow.send(randomUUID(), null, { input: undefined, input_ref: `cas://sha256:${hex}` });
    assert.deepEqual(JSON.parse((await flow.signal(token)).output), { size: 1000 });
    assert.deepEqual(seen, [[`/api/v1/cas/sha256:${hex}`, 'Bearer tf_read']]);
    await withApi.stop();

    const withoutApi = worker(type).handle(async () => ({}));
    await withoutApi.start();
    const second = await flow.send(randomUUID(), null, { input: undefined, input_ref: `cas://sha256:${hex}` });
    const error = JSON.parse((await flow.signal(second.token)).error);
    assert.equal(error.kind, 'permanent');
    assert.equal(error.code, 'input_ref_unreadable');
    assert.match(error.message, /options\.api/);
    await withoutApi.stop();
  } finally {
    api.close();
  }
});

test('a token of a run announced as ended before it was read is acknowledged without running', LIMIT, async () => {
  const type = typeName();
  let ran = 0;
  const w = worker(type).handle(async () => { ran += 1; return {}; });
  await w.start();
  const run = randomUUID();
  await redis.admin.publish('wf.runs.ended', run);
  await sleep(50);
  const flow = engine(redis.admin, type);
  const { token, id } = await flow.send(run, {});
  await waitFor(async () => flow.delivered(id));
  await sleep(50);
  assert.equal(ran, 0);
  assert.deepEqual(await flow.signals(token), []);
  await w.stop();
});

test('a stream or group deleted under the worker is made again, and its tokens are taken', LIMIT, async () => {
  const type = typeName();
  const w = worker(type).handle(async (task) => task.input);
  await w.start();
  const flow = engine(redis.admin, type);
  const first = await flow.send(randomUUID(), { n: 1 });
  assert.equal((await flow.signal(first.token)).status, 'completed');
  await redis.admin.del(flow.tasks); // e.g. a Redis restarted without persistence
  const second = await flow.send(randomUUID(), { n: 2 });
  assert.deepEqual(JSON.parse((await flow.signal(second.token)).output), { n: 2 });
  await waitFor(async () => (await flow.pending()) === 0);
  await w.stop();
  assert.match(w.log.said.join('\n'), /has no group/);
});

test('signing: false sends unsigned signals', LIMIT, async () => {
  const type = typeName();
  const w = worker(type, { key: undefined, signing: false }).handle(async () => ({ ok: true }));
  await w.start();
  const flow = engine(redis.admin, type);
  const { token } = await flow.send(randomUUID(), {});
  const done = await flow.signal(token);
  assert.equal(done.status, 'completed');
  assert.deepEqual([done.key, done.signed_at, done.sig], [undefined, undefined, undefined]);
  await w.stop();
  assert.throws(() => new Worker({ type }), /options\.key/);
});

test('the token\'s traceparent reaches the handler as task.traceparent', LIMIT, async () => {
  const type = typeName();
  const seen = [];
  const w = worker(type).handle(async (task) => { seen.push(task.traceparent); return {}; });
  await w.start();
  const flow = engine(redis.admin, type);
  const traceparent = '00-01a221b2333380008acb21f45656d150-5d2c3a1b0e9f8d7c-01';
  const { token } = await flow.send(randomUUID(), {}, { traceparent });
  await flow.signal(token);
  assert.deepEqual(seen, [traceparent]);
  await w.stop();
});
