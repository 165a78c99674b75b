/**
 * Tokenflow's Redis plumbing: connections, every key name ({@link io.tokenflow.redis.RedisKeys}), the Lua steps that
 * move a run's state atomically, and the run meta hash ({@link io.tokenflow.redis.RunMeta}).
 */
package io.tokenflow.redis;
