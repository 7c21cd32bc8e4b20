// A refusal that means "not now" (here: the world is full) is asked again with
// backoff until the server lets the client in; a final one (a wrong token) is not.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { refusalDelay, TRANSIENT_REFUSALS } from '../src/core/refusal.js';
import { connect, rollPayload, until } from '../test-helpers/clients.mjs';
import { createWorld, makeDataDir, startServer } from '../test-helpers/server.mjs';

describe('refusal backoff', () => {
  test('doubles from the base up to the cap, with up to half taken off at random', () => {
    const none = () => 0;
    const most = () => 1;
    assert.deepEqual([0, 1, 2, 3, 4, 10].map((n) => refusalDelay(n, 100, 1000, none)), [100, 200, 400, 800, 1000, 1000]);
    assert.deepEqual([0, 3].map((n) => refusalDelay(n, 100, 1000, most)), [50, 400]);
    assert.equal(refusalDelay(5000, 100, 1000, none), 1000, 'no overflow after many refusals');
  });

  test('only "not now" refusals are retried', () => {
    for (const code of ['store_error', 'shutting_down', 'world_full', 'auth_throttled']) assert.ok(TRANSIENT_REFUSALS.has(code), code);
    for (const code of ['bad_token', 'bad_auth', 'unsupported_protocol']) assert.ok(!TRANSIENT_REFUSALS.has(code), code);
  });
});

describe('a full world lets a waiting client in when a seat frees', () => {
  let data;
  let server;
  let world;
  const open = [];
  before(async () => {
    data = await makeDataDir();
    world = await createWorld(data);
    server = await startServer(data, { extraArgs: ['--world-connections', '1'] });
  });
  after(async () => {
    for (const client of open) client.close();
    await server?.stop('SIGKILL');
    if (data) await rm(data, { recursive: true, force: true });
  });

  test('world_full: the client waits, asks again, and its request goes through', async () => {
    const seated = connect(server.url, world.gm_token, 'dm');
    open.push(seated.client);
    await seated.client.ready();
    const waiting = connect(server.url, world.gm_token, 'dm2', { timeoutMs: 15000, retries: 0 });
    open.push(waiting.client);
    await until(() => waiting.seen.connection.some((c) => c.state === 'reconnecting' && c.error?.code === 'world_full'), 'a world_full refusal');
    const asked = waiting.seen.connection.filter((c) => c.error?.code === 'world_full').length;
    await until(() => waiting.seen.connection.filter((c) => c.error?.code === 'world_full').length > asked, 'a second try', 8000);
    assert.notEqual(waiting.client.state, 'refused');
    const pending = waiting.client.request('roll', rollPayload('aldara'));
    seated.client.close();
    const ack = await pending;
    assert.equal(ack.ok, true, JSON.stringify(ack));
    assert.equal(waiting.client.state, 'connected');
    assert.equal(waiting.seen.welcome.length, 1);
  });

  test('a wrong token is final: refused, no retry, requests answered at once', async () => {
    const wrong = connect(server.url, 'player_not-a-token', 'eve');
    open.push(wrong.client);
    await until(() => wrong.client.state === 'refused', 'the refusal');
    const ack = await wrong.client.request('roll', rollPayload('aldara'));
    assert.equal(ack.ok, false);
    assert.equal(ack.error.code, 'bad_token');
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(wrong.seen.connection.filter((c) => c.error?.code === 'bad_token').length, 1, 'asked once');
  });
});
