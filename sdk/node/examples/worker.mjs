// An example Tokenflow worker: greets whoever its input names. Run it with
//   TOKENFLOW_REDIS_URL=redis://127.0.0.1:6379/0 TOKENFLOW_TYPE=greet \
//   TOKENFLOW_WORKER_KEY_ID=wk_… TOKENFLOW_WORKER_KEY_SECRET=… node examples/worker.mjs
// after registering the type (PUT /api/v1/node-types/greet) and a worker key (POST /api/v1/worker-keys).
import { PermanentError, Worker } from '../src/index.js';

const env = (name, fallback) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) {
    console.error(`Expected ${name} in the environment`);
    process.exit(2);
  }
  return value;
};

const worker = new Worker({
  redis: env('TOKENFLOW_REDIS_URL', 'redis://127.0.0.1:6379/0'),
  type: env('TOKENFLOW_TYPE', 'greet'),
  shards: Number(env('TOKENFLOW_SHARDS', '1')),
  concurrency: 4,
  key: { id: env('TOKENFLOW_WORKER_KEY_ID'), secret: env('TOKENFLOW_WORKER_KEY_SECRET') },
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
