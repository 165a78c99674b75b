/** A failure worth trying again (the node's retry policy decides): network trouble, a busy service. */
export class TransientError extends Error {
  /** @param {string} message @param {{code?: string, cause?: unknown}} [options] */
  constructor(message, options = {}) {
    super(message, { cause: options.cause });
    this.name = 'TransientError';
    this.kind = 'transient';
    this.code = options.code ?? 'transient';
  }
}

/** A failure that trying again will not mend: bad input, a refused request. */
export class PermanentError extends Error {
  /** @param {string} message @param {{code?: string, cause?: unknown}} [options] */
  constructor(message, options = {}) {
    super(message, { cause: options.cause });
    this.name = 'PermanentError';
    this.kind = 'permanent';
    this.code = options.code ?? 'permanent';
  }
}
