import { test } from 'node:test';
import { createHmac } from 'node:crypto';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { sign } from '../src/index.js';
import { PROTOCOL, documentedSign } from './helpers.js';

const SIGNALS = [
  // 2-byte (ü, é), 3-byte (北京, €), 4-byte (🚀, 𝄞) UTF-8 characters and newlines, in values and in the secret
  { token: 'Xy-1', run: '3f2a', node: 'where', status: 'completed',
    output: '{"city":"Zürich 北京 🚀","note":"two\nlines"}', worker: 'w1', started_at: '1790000000000' },
  { token: 'Xy-2', run: '3f2a', node: 'where', status: 'failed', attempt: '2',
    error: JSON.stringify({ message: 'naïve €\r\nsecond line 𝄞', kind: 'transient', code: 'busy' }), worker: 'wörker-1' },
  { kind: 'started', token: 'Xy-3', run: '3f2a', node: 'where~compensate', worker: 'w1', started_at: '1790000000001' },
  { kind: 'heartbeat', token: 'Xy-4', run: '3f2a', node: 'where', worker: '' },
  { token: 'Xy-5', run: 'r', node: 'n', status: 'completed', output: '"\\u0000 é\n\n🚀🚀"', sig: 'stale, left out' },
];

test('signs exactly as the Node snippet of docs/worker-protocol.md §6 (which CI checks against the server)', async () => {
  const snippet = await documentedSign();
  for (const secret of ['s3cr3t-é-🔑', 'plain', '北京\n']) {
    for (const fields of SIGNALS) {
      const now = 1790000000123;
      const ours = sign(fields, 'wk_1', secret, now);
      assert.deepEqual(ours, snippet(fields, 'wk_1', secret, now));
      assert.match(ours.sig, /^[0-9a-f]{64}$/);
    }
  }
});

test('the signature is the HMAC of the worked example of §6', () => {
  const example = '3:key4:wk_13:run2:r19:signed_at1:5';
  assert.ok(readFileSync(PROTOCOL, 'utf8').includes('`' + example + '`'));
  const signed = sign({ run: 'r1' }, 'wk_1', 'x', 5);
  assert.equal(signed.sig, createHmac('sha256', Buffer.from('x', 'utf8')).update(example).digest('hex'));
});

test('lengths count UTF-8 bytes, and any change of a field changes the signature', () => {
  const secret = 'k';
  const signed = sign({ output: 'é🚀' }, 'wk_1', secret, 7);
  const canonical = `3:key4:wk_16:output6:é🚀9:signed_at1:7`; // é is 2 bytes, 🚀 4
  assert.equal(signed.sig, createHmac('sha256', secret).update(canonical, 'utf8').digest('hex'));
  assert.notEqual(sign({ output: 'é🚀 ' }, 'wk_1', secret, 7).sig, signed.sig);
  assert.notEqual(sign({ output: 'é🚀', extra: '' }, 'wk_1', secret, 7).sig, signed.sig);
  assert.notEqual(sign({ output: 'é🚀' }, 'wk_1', secret, 8).sig, signed.sig);
});
