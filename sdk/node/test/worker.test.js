import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

import { PermanentError, TransientError } from '../src/index.js';
import {
  KEY, LIMIT, documentedSign, engine, record, sleep, typeName, waitFor, workerAcl, workerSuite,
} from './helpers.js';

const { redis, worker } = workerSuite();

/** Checks `key`, `signed_at` and `sig` with the snippet of docs/worker-protocol.md §6, as the server would. */
async function assertSigned(signal) {
  const { sig, key, signed_at: signedAt, ...fields } = signal;
  assert.equal(key, KEY.id);
  assert.ok(Math.abs(Date.now() - Number(signedAt)) < 60_000, `signed_at ${signedAt} is now`);
  assert.equal((await documentedSign())(fields, key, KEY.secret, Number(signedAt)).sig, sig, 'the signature verifies');
}

test('completes a token with its output in a signed signal, then acknowledges it', LIMIT, async () => {
  const type = typeName();
  const w = worker(type).handle(async (task) => ({ greeting: `hello ${task.input.name}`, attempt: task.attempt }));
  await w.start();
  const flow = engine(redis.admin, type);
  const run = randomUUID();
  const { token } = await flow.send(run, { name: 'Ada 🚀' });
  const done = await flow.signal(token);
  assert.equal(done.status, 'completed');
  assert.deepEqual(JSON.parse(done.output), { greeting: 'hello Ada 🚀', attempt: 1 });
  assert.equal(done.token, token);
  assert.equal(done.run, run);
  assert.equal(done.node, 'work');
  assert.equal(done.worker, w.consumer);
  assert.ok(Number(done.started_at) > 0);
  assert.equal(done.attempt, undefined, 'a completion echoes no attempt');
  await assertSigned(done);
  assert.deepEqual((await flow.signals(token)).map((s) => s.kind ?? s.status), ['completed'], 'quick work: no start');
  await waitFor(async () => (await flow.pending()) === 0);
  await w.stop();
  assert.deepEqual(w.log?.said ?? [], []);
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
  const t = await flow.signal(transient.token);
  assert.equal(t.status, 'failed');
  assert.equal(t.output, undefined);
  assert.deepEqual(JSON.parse(t.error), { message: 'busy', kind: 'transient', code: 'busy' });
  assert.equal(t.attempt, '2');
  await assertSigned(t);
  const p = await flow.signal(permanent.token);
  assert.deepEqual(JSON.parse(p.error), { message: 'bad input', kind: 'permanent', code: 'bad_input' });
  assert.equal(p.attempt, '1');
  assert.deepEqual(JSON.parse((await flow.signal(other.token)).error),
    { message: 'surprise', kind: 'permanent', code: 'worker_error' });
  await waitFor(async () => (await flow.pending()) === 0);
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
  await assertSigned(beat);
  const started = await flow.signal(token, 'started');
  assert.ok(Number(started.started_at) > 0);
  await assertSigned(started);
  assert.equal((await flow.signal(token)).status, 'completed');
  const kinds = (await flow.signals(token)).map((s) => s.kind ?? s.status);
  assert.equal(kinds.filter((k) => k === 'started').length, 1);
  assert.ok(kinds.filter((k) => k === 'heartbeat').length >= 2, `heartbeats in ${kinds}`);
  assert.equal(kinds.at(-1), 'completed');
  await waitFor(async () => (await flow.pending()) === 0);
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

test('a run announced as ended aborts its task, acknowledged at once and without a completion', LIMIT, async () => {
  const type = typeName();
  let aborted = false;
  let finished = false;
  // the handler notices the abort but takes its time to give up: the token is acknowledged meanwhile
  const w = worker(type).handle((task, ctx) => new Promise((resolve) => {
    ctx.signal.addEventListener('abort', () => {
      aborted = true;
      setTimeout(() => { finished = true; resolve({ too: 'late' }); }, 700);
    });
  }));
  await w.start();
  const flow = engine(redis.admin, type);
  const run = randomUUID();
  const { token } = await flow.send(run, {});
  await waitFor(async () => w.running.size === 1);
  await redis.admin.publish('wf.runs.ended', run);
  await waitFor(async () => (await flow.pending()) === 0);
  assert.ok(aborted);
  assert.equal(finished, false, 'acknowledged before the handler gave up');
  await waitFor(async () => finished && w.running.size === 0);
  await sleep(50);
  assert.deepEqual((await flow.signals(token)).filter((s) => s.status), [], 'its result is dropped');
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
  assert.deepEqual(w.log.said, []);
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
  const flow = engine(redis.admin, type);
  const tokens = [];
  for (let i = 0; i < 6; i += 1) tokens.push((await flow.send(randomUUID(), { i })).token);
  await w.start(); // six tokens wait: the worker may take only two at a time
  for (const token of tokens) await flow.signal(token);
  assert.equal(most, 2);
  await w.stop();
});

test('works as a Redis user holding only the ACL rules of docs/worker-protocol.md §7', LIMIT, async () => {
  const type = typeName();
  const user = `w-${type}`;
  await redis.admin.call('ACL', 'SETUSER', user, 'on', '>pw-12345', ...workerAcl(type));
  const flow = engine(redis.admin, type);
  // an entry a dead worker left, to be taken over (XAUTOCLAIM) as that user
  await redis.admin.xgroup('CREATE', flow.tasks, flow.group, '0', 'MKSTREAM');
  const abandoned = await flow.send(randomUUID(), { abandoned: true });
  await redis.admin.xreadgroup('GROUP', flow.group, 'died', 'COUNT', 1, 'STREAMS', flow.tasks, '>');
  await redis.admin.call('ACL', 'LOG', 'RESET');
  const ended = randomUUID();
  const w = worker(type, { redis: `redis://${user}:pw-12345@127.0.0.1:${redis.port}/0`, heartbeatMs: 100,
    claimIdleMs: 300, startedAfterMs: 50 })
    .handle(async (task, ctx) => {
      if (task.run === ended) return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(null)));
      await sleep(250);
      return { confined: true };
    });
  await w.start();
  const { token } = await flow.send(randomUUID(), {});
  assert.deepEqual(JSON.parse((await flow.signal(token)).output), { confined: true });
  assert.deepEqual(JSON.parse((await flow.signal(abandoned.token)).output), { confined: true });
  for (const kind of ['started', 'heartbeat']) await assertSigned(await flow.signal(token, kind));
  const cancelled = await flow.send(ended, {});
  await waitFor(async () => w.running.size === 1);
  await redis.admin.publish('wf.runs.ended', ended);
  await waitFor(async () => (await flow.pending()) === 0);
  assert.deepEqual((await flow.signals(cancelled.token)).filter((s) => s.status), []);
  await w.stop();
  assert.deepEqual(w.log.said, [], 'nothing refused or failed');
  assert.deepEqual((await redis.admin.call('ACL', 'LOG')).map(record), [], 'no command was refused (ACL LOG)');
  // and the user really is confined: it cannot read the completions it writes, nor run meta
  const confined = new Redis(`redis://${user}:pw-12345@127.0.0.1:${redis.port}/0`,
    { enableReadyCheck: false, disableClientInfo: true, maxRetriesPerRequest: 0 });
  try {
    await assert.rejects(confined.xrange('wf.completions:{0}', '-', '+'), /NOPERM/);
    await assert.rejects(confined.hget(`wf.run:{0}:${ended}:meta`, 'status'), /NOPERM/);
  } finally {
    confined.disconnect();
  }
});
