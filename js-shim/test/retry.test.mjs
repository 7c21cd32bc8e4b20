// Timeouts and retries: bounded, with backoff, always with the same id. First
// against a stand-in socket, then against the real server frozen by SIGSTOP.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createBridgeClient } from '../src/core/index.js';
import { connect, rollPayload, until } from '../test-helpers/clients.mjs';
import { fakeIo, WELCOME } from '../test-helpers/fake-io.mjs';
import { startTable } from '../test-helpers/server.mjs';

const parser = {}; // the fake socket never encodes

describe('retries with a stand-in socket', () => {
  test('no ack: bounded retries with backoff, one id, then client_timeout', async () => {
    const fake = fakeIo({ answer: () => undefined });
    const client = createBridgeClient({ url: 'http://x', token: 't', user: 'u', io: fake.io, parser, timeoutMs: 60, retries: 3, backoffMs: 40 });
    fake.socket.fire('welcome', WELCOME);
    const started = Date.now();
    const ack = await client.request('roll', rollPayload());
    const took = Date.now() - started;
    assert.equal(ack.ok, false);
    assert.equal(ack.error.code, 'client_timeout');
    assert.equal(fake.sent.length, 4, 'one try and three retries');
    assert.equal(new Set(fake.sent.map((s) => s.body.id)).size, 1, 'the same id on every retry');
    assert.match(fake.sent[0].body.id, /^[0-9a-f-]{36}$/);
    // Each retry waits for the previous try's timeout, then 40, 80, 160 ms of backoff.
    // The timeout each try was given (at most 60 ms: the rest of its 60 ms once the
    // socket was ready) is what the stand-in recorded; 2 ms for the clocks' rounding.
    // Lower bounds only: a loaded machine makes every gap longer, never shorter.
    const gaps = fake.sent.slice(1).map((s, i) => s.at - fake.sent[i].at);
    const least = fake.sent.slice(0, 3).map((s, i) => s.timeout + 40 * 2 ** i - 2);
    assert.ok(fake.sent.every((s) => s.timeout <= 60), `timeouts ${fake.sent.map((s) => s.timeout)}`);
    assert.ok(gaps.every((gap, i) => gap >= least[i]), `gaps ${gaps}, at least ${least}`);
    assert.ok(took >= least.reduce((a, b) => a + b, 0), `took ${took} ms`);
    client.close();
  });

  test('a late answer on a retry resolves the request', async () => {
    const fake = fakeIo({ answer: (event, body, n) => (n < 3 ? undefined : { ok: true, seq: 7, duplicate: true, cards: [], tokens: [] }) });
    const client = createBridgeClient({ url: 'http://x', token: 't', user: 'u', io: fake.io, parser, timeoutMs: 40, retries: 5, backoffMs: 10 });
    fake.socket.fire('welcome', WELCOME);
    const ack = await client.request('roll', rollPayload());
    assert.equal(ack.ok, true);
    assert.equal(ack.seq, 7);
    assert.equal(fake.sent.length, 3);
    client.close();
  });

  test('transient server errors are retried, others are returned at once', async () => {
    const answers = [
      { ok: false, error: { code: 'store_error', message: 'x', field: null } },
      { ok: false, error: { code: 'not_your_actor', message: 'y', field: 'actor' } },
    ];
    const fake = fakeIo({ answer: (event, body, n) => answers[n - 1] });
    const client = createBridgeClient({ url: 'http://x', token: 't', user: 'u', io: fake.io, parser, timeoutMs: 40, retries: 5, backoffMs: 5 });
    fake.socket.fire('welcome', WELCOME);
    const ack = await client.request('roll', rollPayload());
    assert.equal(ack.error.code, 'not_your_actor');
    assert.equal(fake.sent.length, 2);
    client.close();
  });

  test('requests wait for the welcome, and not forever', async () => {
    const fake = fakeIo({ answer: () => ({ ok: true, seq: 1, duplicate: false, cards: [], tokens: [] }) });
    const client = createBridgeClient({ url: 'http://x', token: 't', user: 'u', io: fake.io, parser, timeoutMs: 50, retries: 1, backoffMs: 5 });
    const waiting = await client.request('roll', rollPayload());
    assert.equal(waiting.error.code, 'client_timeout');
    assert.equal(fake.sent.length, 0, 'nothing is sent before the welcome');
    const pending = client.request('roll', rollPayload());
    setTimeout(() => fake.socket.fire('welcome', WELCOME), 20);
    assert.equal((await pending).ok, true);
    client.close();
  });

  test('auth carries the protocol, last_seq and locale, and no undefined', () => {
    const fake = fakeIo({ answer: () => undefined });
    const client = createBridgeClient({ url: 'http://x/', token: 't', user: 'u', io: fake.io, parser, lastSeq: 12 });
    assert.deepEqual(fake.socket.auth, { token: 't', user: 'u', name: '', protocol: 1, last_seq: 12 });
    assert.equal(fake.socket.url, 'http://x/vtt');
    assert.deepEqual(fake.socket.options.transports, ['websocket']);
    assert.equal(fake.socket.options.parser, parser);
    client.close();
  });

  test('a closed client answers at once', async () => {
    const fake = fakeIo({ answer: () => undefined });
    const client = createBridgeClient({ url: 'http://x', token: 't', user: 'u', io: fake.io, parser });
    client.close();
    const ack = await client.request('roll', rollPayload());
    assert.equal(ack.error.code, 'client_closed');
    assert.equal(client.state, 'closed');
  });
});

describe('retries against a frozen real server', () => {
  let table;
  const open = [];
  before(async () => {
    table = await startTable();
  });
  after(async () => {
    for (const client of open) client.close();
    table?.server.resume();
    await table?.cleanup();
  });

  test('a frozen server: the client gives up in bounded time; after, the id made one event', async () => {
    const gm = connect(table.server.url, table.world.gm_token, 'gm', { timeoutMs: 250, retries: 2, backoffMs: 50 });
    const watcher = connect(table.server.url, table.world.player_token, 'ana');
    open.push(gm.client, watcher.client);
    await gm.client.ready();
    await watcher.client.ready();
    const id = 'frozen-server-request-1';
    table.server.pause();
    const started = Date.now();
    const ack = await gm.client.request('roll', { ...rollPayload(), id });
    const took = Date.now() - started;
    table.server.resume();
    assert.equal(ack.ok, false);
    assert.equal(ack.error.code, 'client_timeout');
    // At least three 250 ms tries; the upper bound only says "gave up", roomy enough
    // for a loaded machine (0.9 s nominal).
    assert.ok(took >= 750 && took < 10000, `took ${took} ms`);
    // The three sends were buffered by the kernel: the server stores one event.
    const again = await gm.client.request('roll', { ...rollPayload(), id });
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(again.duplicate, true);
    await until(() => watcher.seen.card.length >= 1, 'the card');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(
      watcher.seen.card.map((c) => c.seq),
      [again.seq],
    );
    const next = await gm.client.request('roll', rollPayload());
    assert.equal(next.seq, again.seq + 1);
  });

  test('a server that thaws during the retries: the request resolves with one event', async () => {
    const gm = connect(table.server.url, table.world.gm_token, 'gm', { timeoutMs: 300, retries: 4, backoffMs: 50 });
    const watcher = connect(table.server.url, table.world.player_token, 'beto');
    open.push(gm.client, watcher.client);
    await gm.client.ready();
    await watcher.client.ready();
    table.server.pause();
    setTimeout(() => table.server.resume(), 500);
    const ack = await gm.client.request('roll', rollPayload('bruno'));
    assert.equal(ack.ok, true, JSON.stringify(ack));
    await until(() => watcher.seen.card.length >= 1, 'the card');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(watcher.seen.card.length, 1);
    assert.equal(watcher.seen.card[0].seq, ack.seq);
  });
});
