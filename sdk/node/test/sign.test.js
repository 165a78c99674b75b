import { test } from 'node:test';
import { createHmac } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { sign } from '../src/index.js';

const PROTOCOL = new URL('../../../docs/worker-protocol.md', import.meta.url);

test('signs exactly as the snippet of docs/worker-protocol.md §6 (which CI checks against the server)', async () => {
  const doc = readFileSync(PROTOCOL, 'utf8');
  const snippet = doc.split('<!-- snippet: sign.mjs -->')[1].split('```js')[1].split('```')[0];
  const file = join(mkdtempSync(join(tmpdir(), 'sign-')), 'sign.mjs');
  writeFileSync(file, snippet);
  const documented = await import(pathToFileURL(file));
  const fields = { token: 'Xy-1', run: '3f2a', node: 'where', status: 'completed',
    output: '{"city":"Zürich 北京 🚀","note":"two\nlines"}', worker: 'w1' };
  const secret = 's3cr3t-é-🔑';
  assert.deepEqual(sign(fields, 'wk_1', secret, 1790000000123), documented.sign(fields, 'wk_1', secret, 1790000000123));
});

test('the signature is the HMAC of the worked example of §6', () => {
  const example = '3:key4:wk_13:run2:r19:signed_at1:5';
  assert.ok(readFileSync(PROTOCOL, 'utf8').includes('`' + example + '`'));
  const signed = sign({ run: 'r1' }, 'wk_1', 'x', 5);
  assert.equal(signed.sig, createHmac('sha256', Buffer.from('x', 'utf8')).update(example).digest('hex'));
});
