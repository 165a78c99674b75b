import type { Redis, Cluster, RedisOptions } from 'ioredis';

export interface WorkerOptions {
  /** A Redis URL, ioredis options, or an ioredis client or Cluster to duplicate. Default redis://127.0.0.1:6379/0. */
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
  /** How long one read waits for tokens. Default 2,000 ms. */
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
  handle(handler: Handler): this;
  start(): Promise<void>;
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
