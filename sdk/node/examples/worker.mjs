// An example Tokenflow worker for a custom node type: greets whoever its input names. Run it with
//   TOKENFLOW_REDIS_URL=redis://127.0.0.1:6379/0 TOKENFLOW_TYPE=greet \
//   TOKENFLOW_WORKER_KEY_ID=wk_… TOKENFLOW_WORKER_KEY_SECRET=… node examples/worker.mjs
// after registering the type (PUT /api/v1/node-types/greet) and a worker key for it (POST /api/v1/worker-keys).
// TYPE is read when TOKENFLOW_TYPE is not set; TOKENFLOW_SHARDS is the server's tokenflow.redis.shards (default 1).
import { PermanentError, Worker } from '@tokenflow/worker';

const env = (names, fallback) => {
  for (const name of names) if (process.env[name]) return process.env[name];
  if (fallback === undefined) {
    console.error(`Expected ${names.join(' or ')} in the environment`);
    process.exit(2);
  }
  return fallback;
};

const worker = new Worker({
  redis: env(['TOKENFLOW_REDIS_URL'], 'redis://127.0.0.1:6379/0'),
  type: env(['TOKENFLOW_TYPE', 'TYPE'], 'greet'),
  shards: Number(env(['TOKENFLOW_SHARDS'], '1')),
  concurrency: 4,
  key: { id: env(['TOKENFLOW_WORKER_KEY_ID']), secret: env(['TOKENFLOW_WORKER_KEY_SECRET']) },
}).handle(async (task) => {
  if (typeof task.input?.name !== 'string') {
    throw new PermanentError('Expected input.name to be a string', { code: 'bad_input' });
  }
  return { greeting: `hello ${task.input.name}` };
});

await worker.start();
console.log(`Working on ${worker.type} as ${worker.consumer}`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    await worker.stop({ timeoutMs: 10_000 });
    console.log('Stopped');
    process.exit(0);
  });
}
