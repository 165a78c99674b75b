import { hostname } from 'node:os';
import Redis from 'ioredis';

import { PermanentError, TransientError } from './errors.js';
import { sign } from './sign.js';

const RUNS_ENDED = 'wf.runs.ended';
const NODE_TYPE = /^[a-z][a-z0-9_]{0,62}$/;
/** The `attempt` a failure may echo: what the server accepts (1 to 999). */
const ATTEMPT = /^[1-9][0-9]{0,2}$/;
/** How long a run announced as ended is remembered, so that its tokens read later are dropped too. */
const ENDED_RUNS_TTL_MS = 10 * 60_000;
const ENDED_RUNS_MAX = 10_000;

/**
 * Options of every connection: no ready check (it sends INFO, or CLUSTER INFO on a cluster) and no CLIENT SETINFO,
 * which the Redis ACL rules of docs/worker-protocol.md §7 do not allow.
 */
const CONFINED = { enableReadyCheck: false, disableClientInfo: true };

/**
 * A worker of one node type (docs/worker-protocol.md): reads the type's task stream of every shard in the type's
 * consumer group, runs the handler for each token (at most `concurrency` at once), adds a signed completion or failure
 * to the completions stream of the token's shard and only then acknowledges the token (at least once). While a task
 * runs it reports its start, sends heartbeats and keeps the entry claimed; entries another worker left pending longer
 * than `claimIdleMs` are taken over; a run announced on `wf.runs.ended` aborts its running tasks, which are
 * acknowledged without a completion. It uses only the commands the Redis ACL rules of §7 allow.
 */
export class Worker {
  /** @type {Map<string, {run: string, abort: AbortController}>} entry id → running task */
  running = new Map();
  /** Slots taken: running tasks plus reads in flight (never above `concurrency`). */
  #taken = 0;
  /** @type {Array<{most: number, resolve: (slots: number) => void}>} readers waiting for slots, first come first served */
  #slotWaiters = [];
  /** @type {Map<string, number>} run id → when it was announced as ended */
  #endedRuns = new Map();
  #started = false;
  #stopping = false;
  /** @type {Promise<void> | undefined} */
  #stopped;
  /** Which master the next cluster subscriber connects to. */
  #subscriberTurn = 0;

  /**
   * @param {import('./index.js').WorkerOptions} options
   */
  constructor(options) {
    if (!options || !options.type) throw new TypeError('Expected options.type, the node type to work on');
    if (!NODE_TYPE.test(options.type)) {
      throw new TypeError(`Expected a node type name of a-z, 0-9 and _ (at most 63), but found '${options.type}'`);
    }
    if (options.signing !== false && !(options.key && options.key.id && options.key.secret)) {
      throw new TypeError('Expected options.key {id, secret}: a worker key to sign signals with (POST /api/v1/worker-keys)');
    }
    this.type = options.type;
    this.shards = positive(options.shards ?? 1, 'shards');
    this.concurrency = positive(options.concurrency ?? 1, 'concurrency');
    this.consumer = options.consumer ?? `${hostname()}-${process.pid}`;
    this.key = options.key;
    this.signing = options.signing !== false;
    this.heartbeatMs = positive(options.heartbeatMs ?? 10_000, 'heartbeatMs');
    this.claimIdleMs = positive(options.claimIdleMs ?? 30_000, 'claimIdleMs');
    this.blockMs = positive(options.blockMs ?? 2_000, 'blockMs');
    this.startedAfterMs = options.startedAfterMs === undefined ? 200 : options.startedAfterMs;
    this.api = options.api;
    this.log = options.logger ?? console;
    this.redisOption = options.redis ?? 'redis://127.0.0.1:6379/0';
    this.group = `wf.workers.${this.type}`;
    this.streams = Array.from({ length: this.shards }, (_, shard) => `wf.tasks.${this.type}:{${shard}}`);
  }

  /**
   * Sets the function that does the work: `(task, ctx) => output` (any JSON value, or a promise of one).
   * @param {import('./index.js').Handler} handler
   */
  handle(handler) {
    if (typeof handler !== 'function') throw new TypeError('Expected a function (task, ctx) => output');
    this.handler = handler;
    return this;
  }

  /** Connects, creates the consumer groups where missing, subscribes to ended runs and starts reading. */
  async start() {
    if (!this.handler) throw new Error('Expected a handler (worker.handle(fn)) before start()');
    if (this.#started) throw new Error('Expected start() once, but the worker was started already');
    this.#started = true;
    this.commands = this.#connect();
    this.readers = this.streams.map(() => this.#duplicate(this.commands));
    for (const connection of [this.commands, ...this.readers]) this.#watch(connection);
    try {
      for (const stream of this.streams) await this.#createGroup(stream);
      await this.#subscribe();
    } catch (e) {
      this.#stopping = true;
      this.#connections().forEach((c) => c.disconnect());
      throw e;
    }
    const share = Math.max(1, Math.ceil(this.concurrency / this.shards));
    this.loops = this.streams.map((stream, shard) => this.#read(stream, this.readers[shard], share));
  }

  /**
   * Stops taking tokens, waits for the running tasks up to `timeoutMs` (counted from this call), then closes the
   * connections. Tasks still running then are aborted (`ctx.signal`) and left unacknowledged: another worker takes them
   * over after `claimIdleMs`. Calling it again returns the same promise.
   * @param {{timeoutMs?: number}} [options]
   */
  stop({ timeoutMs = 30_000 } = {}) {
    if (!this.#started) return Promise.resolve();
    this.#stopped ??= this.#stop(Date.now() + timeoutMs);
    return this.#stopped;
  }

  async #stop(deadline) {
    this.#stopping = true;
    this.#slotWaiters.splice(0).forEach((waiter) => waiter.resolve(0));
    // a read blocked in Redis returns within blockMs; its entries are run like the others
    let timer;
    await Promise.race([Promise.allSettled(this.loops ?? []),
      new Promise((resolve) => { timer = setTimeout(resolve, Math.max(0, deadline - Date.now())); })]);
    clearTimeout(timer);
    while (this.running.size > 0 && Date.now() < deadline) await sleep(10);
    for (const task of this.running.values()) task.abort.abort(new Error('the worker stopped before the task ended'));
    // a read still blocked is cut short: whatever it was given stays pending, for another worker to take over
    (this.readers ?? []).forEach((reader) => reader.disconnect());
    await Promise.allSettled([this.commands, this.subscriber].filter(Boolean)
      .map((c) => c.quit().catch(() => c.disconnect())));
  }

  #connections() {
    return [this.commands, this.subscriber, ...(this.readers ?? [])].filter(Boolean);
  }

  #watch(connection) {
    connection.on('error', (e) => { if (!this.#stopping) this.log.warn?.(`[tokenflow] Redis: ${e.message}`); });
  }

  #connect() {
    const option = this.redisOption;
    if (typeof option === 'string') return new Redis(option, CONFINED);
    if (option && typeof option.duplicate === 'function') return this.#duplicate(option);
    return new Redis({ ...option, ...CONFINED });
  }

  /** A new connection (or cluster client) like the given one, confined to the commands of §7. */
  #duplicate(client) {
    if (!client.isCluster) return client.duplicate(CONFINED);
    return client.duplicate([], { ...CONFINED, redisOptions: { ...client.options.redisOptions, ...CONFINED } });
  }

  async #createGroup(stream) {
    try {
      await this.commands.xgroup('CREATE', stream, this.group, '0', 'MKSTREAM');
    } catch (e) {
      if (!String(e.message).startsWith('BUSYGROUP')) throw e;
    }
  }

  /**
   * Subscribes to `wf.runs.ended`. On a cluster the subscriber is a plain connection to one master (a publication
   * reaches every node), moving to another when it is lost: the cluster client's own subscriber would send INFO.
   */
  async #subscribe() {
    const subscriber = this.commands.isCluster ? this.#clusterSubscriber() : this.#duplicate(this.commands);
    this.subscriber = subscriber;
    this.#watch(subscriber);
    subscriber.on('message', (channel, run) => {
      if (channel === RUNS_ENDED) this.#runEnded(run);
    });
    await subscriber.subscribe(RUNS_ENDED);
  }

  #clusterSubscriber() {
    const masters = this.commands.nodes('master');
    if (masters.length === 0) throw new Error('Expected the Redis Cluster to list its masters, but it lists none');
    const { host, port } = masters[this.#subscriberTurn++ % masters.length].options;
    const subscriber = new Redis({ ...this.commands.options.redisOptions, host, port, ...CONFINED,
      retryStrategy: (times) => (times > 5 ? null : Math.min(100 * times, 1_000)) });
    subscriber.once('end', () => {
      if (this.#stopping || this.subscriber !== subscriber) return;
      this.log.warn?.(`[tokenflow] lost the subscription to ${RUNS_ENDED} on ${host}:${port}; moving to another node`);
      setTimeout(() => {
        if (!this.#stopping) this.#subscribe().catch((e) => this.log.warn?.(`[tokenflow] subscribing failed: ${e.message}`));
      }, 500);
    });
    return subscriber;
  }

  /**
   * Takes up to `most` free slots, waiting (first come, first served) while none is free; 0 once stopping. A slot is
   * held from the read that may bring an entry until that entry's task ends, so running tasks never exceed
   * `concurrency`, whatever the number of shards.
   * @returns {Promise<number>}
   */
  #acquire(most) {
    if (this.#stopping) return Promise.resolve(0);
    const free = this.concurrency - this.#taken;
    if (free > 0 && this.#slotWaiters.length === 0) {
      const n = Math.min(most, free);
      this.#taken += n;
      return Promise.resolve(n);
    }
    return new Promise((resolve) => this.#slotWaiters.push({ most, resolve }));
  }

  #release(n) {
    if (n <= 0) return;
    this.#taken -= n;
    while (this.#slotWaiters.length > 0 && this.#taken < this.concurrency) {
      const waiter = this.#slotWaiters.shift();
      const given = Math.min(waiter.most, this.concurrency - this.#taken);
      this.#taken += given;
      waiter.resolve(given);
    }
  }

  /**
   * One shard's loop: with the slots it holds, take over abandoned entries (XAUTOCLAIM, every claimIdleMs / 2), else
   * read new ones (XREADGROUP ... >), and run them.
   */
  async #read(stream, connection, share) {
    let cursor = '0-0';
    let claimAt = 0;
    while (!this.#stopping) {
      const slots = await this.#acquire(share);
      if (slots === 0) continue;
      let entries = [];
      try {
        if (Date.now() >= claimAt) {
          const [next, claimed] = await connection.xautoclaim(stream, this.group, this.consumer, this.claimIdleMs,
            cursor, 'COUNT', slots);
          cursor = next;
          if (cursor === '0-0') claimAt = Date.now() + Math.max(50, Math.floor(this.claimIdleMs / 2));
          // entries deleted from the stream come without fields (Redis 6.2); one of ours still running stays as it is
          entries = (claimed ?? []).filter(([id, fields]) => fields && !this.running.has(id));
        }
        if (entries.length === 0 && cursor === '0-0') {
          const read = await connection.xreadgroup('GROUP', this.group, this.consumer, 'COUNT', slots,
            'BLOCK', this.blockMs, 'STREAMS', stream, '>');
          entries = read?.[0]?.[1] ?? [];
        }
      } catch (e) {
        this.#release(slots);
        if (this.#stopping) return;
        if (String(e.message).includes('NOGROUP')) {
          // the stream or its group was deleted (a Redis restarted without persistence, a cleanup): make it again
          this.log.warn?.(`[tokenflow] ${stream} has no group ${this.group}; creating it`);
          await this.#createGroup(stream).catch((again) => this.log.warn?.(`[tokenflow] creating it failed: ${again.message}`));
          cursor = '0-0';
        } else {
          this.log.warn?.(`[tokenflow] reading ${stream} failed: ${e.message}; trying again`);
        }
        await sleep(500);
        continue;
      }
      this.#release(slots - entries.length);
      for (const [id, fields] of entries) this.#run(stream, id, fields);
    }
  }

  /** Runs one entry in a slot already taken, which it gives back when done. */
  #run(stream, id, flat) {
    const fields = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
    const abort = new AbortController();
    this.running.set(id, { run: fields.run, abort });
    this.#work(stream, id, fields, abort)
      .catch((e) => this.log.error?.(`[tokenflow] token ${fields.token} (${stream} ${id}) is left pending: ${e.message}`))
      .finally(() => {
        this.running.delete(id);
        this.#release(1);
      });
  }

  async #work(stream, id, fields, abort) {
    if (!fields.token || !fields.run || !fields.node) {
      // nothing can be reported for it: set aside, as the built-in workers do (docs/failures.md)
      this.log.error?.(`[tokenflow] dropping ${stream} ${id}: expected token, run and node, but found ${JSON.stringify(fields)}`);
      await this.commands.xack(stream, this.group, id);
      return;
    }
    if (this.#hasEnded(fields.run)) {
      await this.commands.xack(stream, this.group, id);
      return;
    }
    const completions = `wf.completions:${stream.slice(stream.lastIndexOf(':') + 1)}`;
    const startedAt = Date.now();
    const about = { token: fields.token, run: fields.run, node: fields.node };
    const warn = (what) => (e) => { if (!abort.signal.aborted) this.log.warn?.(`[tokenflow] ${what} failed: ${e.message}`); };
    const heartbeat = async () => {
      if (abort.signal.aborted) return;
      await this.#signal(completions, { kind: 'heartbeat', ...about, worker: this.consumer });
      await this.#keep(stream, id);
    };
    const timers = [
      setInterval(() => heartbeat().catch(warn('heartbeat')), this.heartbeatMs),
      // §3 Long tasks: reset the entry's idle time every third of the claim timeout
      setInterval(() => this.#keep(stream, id).catch(warn('keeping the token claimed')),
        Math.max(50, Math.floor(this.claimIdleMs / 3))),
    ];
    const announce = typeof this.startedAfterMs === 'number' && setTimeout(() => this.#signal(completions,
      { kind: 'started', ...about, worker: this.consumer, started_at: String(startedAt) }).catch(warn('reporting the start')),
    this.startedAfterMs);
    const stopTimers = () => { timers.forEach(clearInterval); if (announce) clearTimeout(announce); };
    /** @type {Promise<unknown> | undefined} */
    let dropped;
    abort.signal.addEventListener('abort', () => {
      stopTimers();
      // its run ended: acknowledged at once without a completion, whenever the handler gives up
      if (abort.signal.reason?.runEnded) {
        dropped = this.commands.xack(stream, this.group, id)
          .catch((e) => this.log.warn?.(`[tokenflow] acknowledging ${stream} ${id} of an ended run failed: ${e.message}`));
      }
    }, { once: true });

    let outcome;
    try {
      const output = await this.handler(await this.#task(fields, abort.signal), { signal: abort.signal, heartbeat });
      outcome = { status: 'completed', output: serialize(output) };
    } catch (e) {
      outcome = { status: 'failed', error: JSON.stringify(errorOf(e)) };
      if (ATTEMPT.test(fields.attempt ?? '')) outcome.attempt = fields.attempt;
    } finally {
      stopTimers();
    }
    if (abort.signal.aborted) {
      await dropped; // undefined when the worker stopped past its deadline: left for another worker to claim
      return;
    }
    // at least once: the completion is on the stream before the token is acknowledged
    await this.#signal(completions, { ...about, ...outcome, worker: this.consumer, started_at: String(startedAt) });
    await this.commands.xack(stream, this.group, id);
  }

  async #task(fields, signal) {
    const decoded = (name, text, fallback) => {
      if (text === undefined) return fallback;
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new PermanentError(`Expected the token's ${name} to be JSON, but it is not: ${e.message}`,
          { code: 'malformed_token' });
      }
    };
    const number = (name, fallback) => {
      if (fields[name] === undefined) return fallback;
      const value = Number(fields[name]);
      if (!Number.isInteger(value)) {
        throw new PermanentError(`Expected the token's ${name} to be a number, but found '${fields[name]}'`,
          { code: 'malformed_token' });
      }
      return value;
    };
    const task = {
      token: fields.token, run: fields.run, node: fields.node, type: fields.type ?? this.type,
      iteration: number('iteration', 0), attempt: number('attempt', 1),
      config: decoded('config', fields.config, {}),
      emittedAt: fields.emitted_at ? new Date(Number(fields.emitted_at)) : undefined,
      fields,
    };
    if (fields.traceparent !== undefined) task.traceparent = fields.traceparent;
    if (fields.from !== undefined) task.from = fields.from;
    task.input = fields.input !== undefined || !fields.input_ref ? decoded('input', fields.input, null)
      : await this.#fetchInput(fields.input_ref, signal);
    return task;
  }

  async #fetchInput(ref, signal) {
    const match = /^cas:\/\/(sha256:[0-9a-f]{64})$/.exec(ref);
    if (!match) {
      throw new PermanentError(`Expected input_ref to be cas://sha256:<hex>, but found '${ref}'`, { code: 'malformed_token' });
    }
    if (!this.api?.url) {
      throw new PermanentError(`Expected options.api {url, token} to fetch the large input ${ref}, but none is set`,
        { code: 'input_ref_unreadable' });
    }
    let response;
    try {
      response = await fetch(`${this.api.url.replace(/\/+$/, '')}/api/v1/cas/${match[1]}`,
        { headers: this.api.token ? { Authorization: `Bearer ${this.api.token}` } : {}, signal });
    } catch (e) {
      throw new TransientError(`Expected the input ${ref} from ${this.api.url}, but: ${e.message}`,
        { code: 'input_ref_unavailable', cause: e });
    }
    if (!response.ok) {
      const again = response.status >= 500 || response.status === 429;
      const Failure = again ? TransientError : PermanentError;
      throw new Failure(`Expected the input ${ref} from the API, but it answered ${response.status}`,
        { code: again ? 'input_ref_unavailable' : 'input_ref_unreadable' });
    }
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new PermanentError(`Expected the input ${ref} to be JSON, but it is not: ${e.message}`,
        { code: 'input_ref_unreadable' });
    }
  }

  /** Resets the entry's idle time, so that no other worker claims a token still being worked on (§3 Long tasks). */
  async #keep(stream, id) {
    await this.commands.xclaim(stream, this.group, this.consumer, 0, id, 'JUSTID');
  }

  async #signal(stream, fields) {
    const signed = this.signing ? sign(fields, this.key.id, this.key.secret) : fields;
    await this.commands.xadd(stream, '*', ...Object.entries(signed).flat());
  }

  #runEnded(run) {
    const now = Date.now();
    this.#endedRuns.set(run, now);
    if (this.#endedRuns.size > ENDED_RUNS_MAX) {
      for (const [old, at] of this.#endedRuns) {
        if (this.#endedRuns.size <= ENDED_RUNS_MAX / 2 && now - at < ENDED_RUNS_TTL_MS) break;
        this.#endedRuns.delete(old);
      }
    }
    for (const task of this.running.values()) {
      if (task.run === run && !task.abort.signal.aborted) {
        const reason = new Error(`run ${run} ended`);
        reason.runEnded = true;
        task.abort.abort(reason);
      }
    }
  }

  #hasEnded(run) {
    const at = this.#endedRuns.get(run);
    if (at === undefined) return false;
    if (Date.now() - at < ENDED_RUNS_TTL_MS) return true;
    this.#endedRuns.delete(run);
    return false;
  }
}

/**
 * The `error` of a failure signal. TransientError / PermanentError (or any error whose `kind` is 'transient' or
 * 'permanent') give their kind and code; anything else is taken for a bug in the handler and fails permanently with
 * code `worker_error`, as the built-in workers do (docs/failures.md: "permanent (bad input, 4xx, a bug ...)").
 */
function errorOf(e) {
  const message = e && e.message ? String(e.message) : String(e);
  if (e && (e.kind === 'permanent' || e.kind === 'transient')) {
    return { message, kind: e.kind, code: typeof e.code === 'string' && e.code ? e.code : e.kind };
  }
  return { message, kind: 'permanent', code: 'worker_error' };
}

function serialize(output) {
  let text;
  try {
    text = JSON.stringify(output === undefined ? null : output);
  } catch (e) {
    throw new PermanentError(`Expected the handler to return a JSON value, but: ${e.message}`, { code: 'worker_error' });
  }
  return text === undefined ? 'null' : text;
}

function positive(value, name) {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`Expected options.${name} > 0, but found ${value}`);
  return value;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
