import { createHmac } from 'node:crypto';

/**
 * The signal's fields with `key`, `signed_at` and `sig` added: HMAC-SHA256 over the canonical form of every other
 * field (docs/worker-protocol.md §6; the same code as the snippet there, which CI checks against the server).
 *
 * @param {Record<string, string>} fields
 * @param {string} keyId
 * @param {string} secret
 * @param {number} [now]
 * @returns {Record<string, string>}
 */
export function sign(fields, keyId, secret, now = Date.now()) {
  const signed = { ...fields, key: keyId, signed_at: String(now) };
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  for (const name of Object.keys(signed).filter((n) => n !== 'sig').sort()) {
    for (const part of [name, signed[name]]) {
      const bytes = Buffer.from(part, 'utf8');
      hmac.update(`${bytes.length}:`);
      hmac.update(bytes);
    }
  }
  return { ...signed, sig: hmac.digest('hex') };
}
