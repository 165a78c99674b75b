import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { KEY, engine, startRedis, waitFor } from './helpers.js';

let redis;
before(async () => { redis = await startRedis(); }, { timeout: 30_000 });
after(async () => { await redis?.stop(); });

test('the example worker greets, and stops gracefully on SIGTERM', { timeout: 20_000 }, async () => {
  const type = `greet_${randomUUID().slice(0, 6)}`;
  const example = spawn(process.execPath, [fileURLToPath(new URL('../examples/worker.mjs', import.meta.url))], {
    env: { ...process.env, TOKENFLOW_REDIS_URL: redis.url, TYPE: type, TOKENFLOW_WORKER_KEY_ID: KEY.id,
      TOKENFLOW_WORKER_KEY_SECRET: KEY.secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  example.stdout.on('data', (chunk) => { said += chunk; });
  example.stderr.on('data', (chunk) => { said += chunk; });
  const exited = new Promise((resolve) => example.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    await waitFor(async () => said.includes('Working on'), 10_000);
    const flow = engine(redis.admin, type);
    const { token } = await flow.send(randomUUID(), { name: 'Ada' });
    const done = await flow.signal(token);
    assert.deepEqual(JSON.parse(done.output), { greeting: 'hello Ada' }, said);
    assert.equal(done.key, KEY.id);
    const bad = await flow.send(randomUUID(), { name: 42 });
    assert.equal(JSON.parse((await flow.signal(bad.token)).error).code, 'bad_input');
  } finally {
    example.kill('SIGTERM');
  }
  assert.deepEqual(await exited, { code: 0, signal: null }, said);
  assert.match(said, /Stopped/);
});
