// Payload cleaning: what the msgpack parser would mangle is made plain or
// refused on the client, before anything is sent.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { cleanPayload, PayloadError } from '../src/core/index.js';
import { connect, rollPayload } from '../test-helpers/clients.mjs';
import { startTable } from '../test-helpers/server.mjs';

describe('cleanPayload', () => {
  test('drops undefined from objects and nulls it in arrays', () => {
    assert.deepEqual(cleanPayload({ a: 1, b: undefined, c: [1, undefined] }), { a: 1, c: [1, null] });
  });

  test('Date becomes its ISO string; an invalid Date is refused', () => {
    const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    assert.deepEqual(cleanPayload({ when }), { when: '2024-01-02T03:04:05.000Z' });
    assert.throws(() => cleanPayload({ when: new Date('nope') }), PayloadError);
  });

  test('BigInt becomes a number when safe, else is refused', () => {
    assert.deepEqual(cleanPayload({ n: 42n, m: -(2n ** 53n - 1n) }), { n: 42, m: -(2 ** 53 - 1) });
    assert.throws(() => cleanPayload({ n: 2n ** 64n }), { name: 'PayloadError', field: 'n' });
  });

  test('typed arrays, Set and Map become arrays and objects', () => {
    assert.deepEqual(cleanPayload({ t: new Uint8Array([1, 2]), f: new Float32Array([0.5]) }), { t: [1, 2], f: [0.5] });
    assert.deepEqual(cleanPayload({ s: new Set(['a', 'b']) }), { s: ['a', 'b'] });
    assert.deepEqual(cleanPayload({ m: new Map([['x', 1], [2, new Set([3])], ['u', undefined]]) }), { m: { x: 1, 2: [3] } });
    assert.deepEqual(cleanPayload({ b: new BigInt64Array([5n]) }), { b: [5] });
    assert.throws(() => cleanPayload({ m: new Map([[{}, 1]]) }), PayloadError);
  });

  test('non-finite numbers and integers past 2^53 are refused with their path', () => {
    for (const bad of [NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 1e300]) {
      assert.throws(() => cleanPayload({ params: { modifier: bad } }), { name: 'PayloadError', field: 'params.modifier' }, String(bad));
    }
    assert.deepEqual(cleanPayload({ a: 2 ** 53 - 1, b: 0.1, c: -0 }), { a: 2 ** 53 - 1, b: 0.1, c: 0 });
    assert.ok(Object.is(cleanPayload(-0), 0));
  });

  test('functions, symbols, binary buffers and cycles are refused', () => {
    assert.throws(() => cleanPayload({ f() {} }), PayloadError);
    assert.throws(() => cleanPayload({ s: Symbol('x') }), PayloadError);
    assert.throws(() => cleanPayload({ b: new ArrayBuffer(2) }), PayloadError);
    const loop = { a: {} };
    loop.a.b = loop;
    assert.throws(() => cleanPayload(loop), { name: 'PayloadError', field: 'a.b' });
    const shared = { x: 1 };
    assert.deepEqual(cleanPayload({ a: shared, b: shared }), { a: { x: 1 }, b: { x: 1 } }, 'shared is not a cycle');
  });

  test('class instances are sent by toJSON or their own fields', () => {
    class Point {
      constructor() {
        this.x = 1;
        this.y = undefined;
      }
    }
    class Named {
      toJSON() {
        return 'named';
      }
    }
    assert.deepEqual(cleanPayload({ p: new Point(), n: new Named() }), { p: { x: 1 }, n: 'named' });
  });
});

describe('cleaning against the real server', () => {
  let table;
  const open = [];
  before(async () => {
    table = await startTable();
  });
  after(async () => {
    for (const client of open) client.close();
    await table?.cleanup();
  });

  test('the raw parser sends undefined as an extension type the server refuses', async () => {
    const socket = io(`${table.server.url}/vtt`, {
      transports: ['websocket'],
      parser,
      auth: { token: table.world.gm_token, user: 'gm', name: 'gm', protocol: 1, last_seq: null },
    });
    open.push({ close: () => socket.close() });
    await new Promise((resolve) => socket.once('welcome', resolve));
    const ack = await socket.timeout(3000).emitWithAck('roll', { id: 'raw-undefined-1', ...rollPayload(), targets: undefined });
    assert.equal(ack.ok, false);
    assert.equal(ack.error.code, 'ext_type');
  });

  test('the client cleans the same payload and the roll goes through', async () => {
    const { client } = connect(table.server.url, table.world.gm_token, 'gm');
    open.push(client);
    await client.ready();
    const ack = await client.request('roll', {
      ...rollPayload(),
      params: { attribute: 'fisico', modifier: 2n, level: undefined },
      targets: undefined,
    });
    assert.equal(ack.ok, true, JSON.stringify(ack));
  });

  test('a Date parameter arrives as text, not as an extension type', async () => {
    const { client } = connect(table.server.url, table.world.gm_token, 'gm');
    open.push(client);
    await client.ready();
    const ack = await client.request('roll', { ...rollPayload(), params: { attribute: new Date(0) } });
    assert.equal(ack.ok, false);
    assert.notEqual(ack.error.code, 'ext_type');
  });

  test('a value with no faithful form is refused on the client and never sent', async () => {
    const { client } = connect(table.server.url, table.world.gm_token, 'gm', { locale: 'en' });
    open.push(client);
    await client.ready();
    const emitted = [];
    const emit = client.socket.emit.bind(client.socket);
    client.socket.emit = (...args) => {
      emitted.push(args[0]);
      return emit(...args);
    };
    for (const modifier of [Infinity, NaN, 2 ** 60, 2n ** 70n]) {
      const ack = await client.request('roll', { ...rollPayload(), params: { attribute: 'fisico', modifier } });
      assert.equal(ack.ok, false);
      assert.equal(ack.error.code, 'client_payload');
      assert.equal(ack.error.field, 'params.modifier');
      assert.match(ack.error.message, /cannot be sent/);
    }
    assert.deepEqual(emitted, []);
  });
});
