import { hostname } from 'node:os';
import Redis from 'ioredis';

import { PermanentError } from './errors.js';
import { sign } from './sign.js';

const RUNS_ENDED = 'wf.runs.ended';

/**
 * A worker of one node type (docs/worker-protocol.md): reads the type's task stream of every shard in the type's
 * consumer group, runs the handler for each token (at most `concurrency` at once), adds a signed completion or failure
 * to the completions stream of the token's shard and only then acknowledges the token (at least once). While a task
 * runs it sends heartbeats and keeps the entry claimed; entries another worker left pending longer than `claimIdleMs`
 * are taken over; a run announced on `wf.runs.ended` aborts its running tasks, which are acknowledged without a
 * completion. It uses only the commands the Redis ACL rules of §7 allow.
 */
export class Worker {
  /**
   * @param {import('./index.js').WorkerOptions} options
   */
  constructor(options) {
    if (!options || !options.type) throw new TypeError('Expected options.type, the node type to work on');
    if (!/^[a-z][a-z0-9_]{0,62}$/.test(options.type)) {
      throw new TypeError(`Expected a node type name of a-z, 0-9 and _, but found '${options.type}'`);
    }
    if (options.signing !== false && !(options.key && options.key.id && options.key.secret)) {
      throw new TypeError('Expected options.key {id, secret}: a worker key to sign signals with (POST /api/v1/worker-keys)');
    }
    this.type = options.type;
    this.shards = options.shards ?? 1;
    this.concurrency = options.concurrency ?? 1;
    this.consumer = options.consumer ?? `${hostname()}-${process.pid}`;
    this.key = options.key;
    this.signing = options.signing !== false;
    this.heartbeatMs = options.heartbeatMs ?? 10_000;
    this.claimIdleMs = options.claimIdleMs ?? 30_000;
    this.blockMs = options.blockMs ?? 2_000;
    this.api = options.api;
    this.log = options.logger ?? console;
    this.redisOption = options.redis ?? 'redis://127.0.0.1:6379/0';
    this.group = `wf.workers.${this.type}`;
    this.streams = Array.from({ length: this.shards }, (_, shard) => `wf.tasks.${this.type}:{${shard}}`);
    /** @type {Map<string, {run: string, abort: AbortController}>} */
    this.running = new Map();
    this.slotWaiters = [];
    this.started = false;
    this.stopping = false;
  }

  /** Sets the function that does the work: `(task, ctx) => output` (any JSON value, or a promise of one). */
  handle(handler) {
    this.handler = handler;
    return this;
  }

  /** Connects, creates the consumer group where missing and starts reading. */
  async start() {
    if (!this.handler) throw new Error('Expected a handler (worker.handle(fn)) before start()');
    if (this.started) return;
    this.started = true;
    this.commands = this.#connect();
    this.subscriber = this.commands.duplicate();
    this.readers = this.streams.map(() => this.commands.duplicate());
    for (const stream of this.streams) {
      try {
        await this.commands.xgroup('CREATE', stream, this.group, '0', 'MKSTREAM');
      } catch (e) {
        if (!String(e.message).startsWith('BUSYGROUP')) throw e;
      }
    }
    this.subscriber.on('message', (channel, run) => {
      if (channel === RUNS_ENDED) this.#runEnded(run);
    });
    await this.subscriber.subscribe(RUNS_ENDED);
    this.loops = this.streams.map((stream, shard) => this.#read(stream, this.readers[shard]));
    this.claimer = setInterval(() => this.#claimAbandoned().catch((e) => this.log.warn?.(`claim failed: ${e.message}`)),
      Math.max(1_000, Math.floor(this.claimIdleMs / 2)));
  }

  /**
   * Stops taking tokens, waits for the running tasks up to `timeoutMs`, then closes the connections. Tasks still
   * running then are left unacknowledged: another worker takes them over after `claimIdleMs`.
   */
  async stop({ timeoutMs = 30_000 } = {}) {
    if (!this.started || this.stopping) return;
    this.stopping = true;
    clearInterval(this.claimer);
    this.slotWaiters.splice(0).forEach((wake) => wake());
    await Promise.allSettled(this.loops);
    const deadline = Date.now() + timeoutMs;
    while (this.running.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const task of this.running.values()) task.abort.abort(new Error('the worker stopped'));
    await Promise.allSettled([this.commands, this.subscriber, ...this.readers].map((c) => c.quit()));
  }

  #connect() {
    const option = this.redisOption;
    // no ready check: it sends INFO, which the ACL rules of §7 do not allow
    if (typeof option === 'string') return new Redis(option, { enableReadyCheck: false, lazyConnect: false });
    if (option && typeof option.duplicate === 'function') return option.duplicate();
    return new Redis({ ...option, enableReadyCheck: false });
  }

  async #read(stream, connection) {
    while (!this.stopping) {
      const free = this.concurrency - this.running.size;
      if (free <= 0) {
        await new Promise((resolve) => this.slotWaiters.push(resolve));
        continue;
      }
      let read;
      try {
        read = await connection.xreadgroup('GROUP', this.group, this.consumer, 'COUNT', free, 'BLOCK', this.blockMs,
          'STREAMS', stream, '>');
      } catch (e) {
        if (this.stopping) return;
        this.log.warn?.(`reading ${stream} failed: ${e.message}; trying again`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      for (const [, entries] of read ?? []) {
        for (const [id, fields] of entries) this.#run(stream, id, fields);
      }
    }
  }

  async #claimAbandoned() {
    for (const stream of this.streams) {
      const free = this.concurrency - this.running.size;
      if (free <= 0 || this.stopping) return;
      const [, entries] = await this.commands.xautoclaim(stream, this.group, this.consumer, this.claimIdleMs, '0-0',
        'COUNT', free);
      for (const [id, fields] of entries ?? []) {
        if (fields && !this.running.has(id)) this.#run(stream, id, fields);
      }
    }
  }

  #run(stream, id, flat) {
    const fields = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
    const abort = new AbortController();
    this.running.set(id, { run: fields.run, abort });
    this.#work(stream, id, fields, abort).catch((e) => this.log.error?.(`token ${fields.token}: ${e.message}`))
      .finally(() => {
        this.running.delete(id);
        const wake = this.slotWaiters.shift();
        if (wake) wake();
      });
  }

  async #work(stream, id, fields, abort) {
    const completions = `wf.completions:${stream.slice(stream.lastIndexOf(':') + 1)}`;
    const startedAt = Date.now();
    const about = { token: fields.token, run: fields.run, node: fields.node };
    const heartbeat = async () => {
      await this.#signal(completions, { kind: 'heartbeat', ...about, worker: this.consumer });
      await this.commands.xclaim(stream, this.group, this.consumer, 0, id, 'JUSTID');
    };
    const beat = setInterval(() => heartbeat().catch((e) => this.log.warn?.(`heartbeat failed: ${e.message}`)),
      this.heartbeatMs);
    let outcome;
    try {
      const task = {
        token: fields.token, run: fields.run, node: fields.node, type: fields.type,
        iteration: Number(fields.iteration ?? 0), attempt: Number(fields.attempt ?? 1),
        input: await this.#input(fields), config: fields.config ? JSON.parse(fields.config) : {},
        emittedAt: fields.emitted_at ? new Date(Number(fields.emitted_at)) : undefined,
      };
      const output = await this.handler(task, { signal: abort.signal, heartbeat });
      outcome = { status: 'completed', output: JSON.stringify(output === undefined ? null : output) };
    } catch (e) {
      outcome = { status: 'failed', error: JSON.stringify(errorOf(e)), attempt: fields.attempt ?? '1' };
    } finally {
      clearInterval(beat);
    }
    if (abort.signal.aborted) {
      if (!abort.signal.reason?.runEnded) return; // stopped past its deadline: left for another worker to claim
      await this.commands.xack(stream, this.group, id); // its run ended: acknowledged without a completion
      return;
    }
    await this.#signal(completions, { ...about, ...outcome, worker: this.consumer, started_at: String(startedAt) });
    await this.commands.xack(stream, this.group, id);
  }

  async #input(fields) {
    if (fields.input !== undefined) return JSON.parse(fields.input);
    const ref = fields.input_ref;
    if (!ref) return null;
    if (!this.api) {
      throw new PermanentError(`Expected options.api {url, token} to fetch the large input ${ref}, but none is set`,
        { code: 'input_ref_unreadable' });
    }
    const response = await fetch(`${this.api.url.replace(/\/$/, '')}/api/v1/cas/${ref.slice('cas://'.length)}`,
      { headers: { Authorization: `Bearer ${this.api.token}` } });
    if (!response.ok) {
      throw new PermanentError(`Expected the input ${ref} from the API, but it answered ${response.status}`,
        { code: 'input_ref_unreadable' });
    }
    return JSON.parse(await response.text());
  }

  async #signal(stream, fields) {
    const signed = this.signing ? sign(fields, this.key.id, this.key.secret) : fields;
    await this.commands.xadd(stream, '*', ...Object.entries(signed).flat());
  }

  #runEnded(run) {
    for (const task of this.running.values()) {
      if (task.run === run) {
        const reason = new Error(`run ${run} ended`);
        reason.runEnded = true;
        task.abort.abort(reason);
      }
    }
  }
}

/** The `error` of a failure signal: TransientError / PermanentError say their kind; anything else is transient. */
function errorOf(e) {
  const kind = e && (e.kind === 'permanent' || e.kind === 'transient') ? e.kind : 'transient';
  const code = e && typeof e.code === 'string' ? e.code : 'worker_error';
  return { message: e && e.message ? String(e.message) : String(e), kind, code };
}
