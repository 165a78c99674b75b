export { Worker } from './worker.js';
export { TransientError, PermanentError } from './errors.js';
export { sign } from './sign.js';
