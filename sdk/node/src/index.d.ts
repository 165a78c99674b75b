import type { Redis, Cluster, RedisOptions } from 'ioredis';

export interface WorkerOptions {
  /**
   * A Redis URL, ioredis options, or an ioredis client or Cluster, which the worker duplicates (never using it itself;
   * create it with `lazyConnect: true`). Default redis://127.0.0.1:6379/0.
   */
  redis?: string | RedisOptions | Redis | Cluster;
  /** The node type whose tokens this worker takes. */
  type: string;
  /** Tokenflow's `tokenflow.redis.shards` (the node type's `streams` in GET /api/v1/node-types/{type}). Default 1. */
  shards?: number;
  /** Most tasks running at once. Default 1. */
  concurrency?: number;
  /** Consumer name, unique per worker process. Default `<hostname>-<pid>`. */
  consumer?: string;
  /** The worker key signals are signed with (POST /api/v1/worker-keys). */
  key?: { id: string; secret: string };
  /** false: send unsigned signals (only while the server accepts them). Default true. */
  signing?: boolean;
  /** Heartbeat interval while a task runs. Default 10,000 ms. */
  heartbeatMs?: number;
  /** Entries pending longer than this are taken over from other workers. Default 30,000 ms. */
  claimIdleMs?: number;
  /** Report `kind started` for work still running after this many ms (as the built-in workers do); null: never. Default 200. */
  startedAfterMs?: number | null;
  /** How long one read waits for tokens (also how long stop() may wait for a read in progress). Default 2,000 ms. */
  blockMs?: number;
  /** Tokenflow's REST API, to fetch large inputs (`input_ref`): a token with `runs:read`. */
  api?: { url: string; token: string };
  logger?: Pick<Console, 'warn' | 'error'>;
}

export interface Task {
  token: string;
  run: string;
  node: string;
  type: string;
  iteration: number;
  attempt: number;
  input: unknown;
  config: Record<string, unknown>;
  emittedAt?: Date;
  /** A compensator's task (`<node>~compensate`): the node it undoes. */
  from?: string;
  /**
   * W3C trace context of the token (`00-<run's trace id>-<the token's node span>-01`): pass it on (e.g. as the
   * `traceparent` header of calls the handler makes) or start the handler's own span under it.
   */
  traceparent?: string;
  /** The stream entry's raw fields. */
  fields: Record<string, string>;
}

export interface TaskContext {
  /** Aborted when the task's run ends (cancelled or failed) or the worker stops past its deadline. */
  signal: AbortSignal;
  /** Says the task is still being worked on (also sent every heartbeatMs). */
  heartbeat(): Promise<void>;
}

export type Handler = (task: Task, ctx: TaskContext) => unknown | Promise<unknown>;

export class Worker {
  constructor(options: WorkerOptions);
  readonly type: string;
  readonly consumer: string;
  readonly shards: number;
  readonly concurrency: number;
  /** The tasks running now: stream entry id → the task's run id. */
  readonly running: ReadonlyMap<string, { run: string }>;
  handle(handler: Handler): this;
  start(): Promise<void>;
  /**
   * Stops reading, waits up to `timeoutMs` (default 30,000) for running tasks, then aborts the rest (left pending for
   * another worker) and closes the connections. Calling it again returns the same promise.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export class TransientError extends Error {
  constructor(message: string, options?: { code?: string; cause?: unknown });
  readonly kind: 'transient';
  readonly code: string;
}

export class PermanentError extends Error {
  constructor(message: string, options?: { code?: string; cause?: unknown });
  readonly kind: 'permanent';
  readonly code: string;
}

export function sign(fields: Record<string, string>, keyId: string, secret: string, now?: number): Record<string, string>;
