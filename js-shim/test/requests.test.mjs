// Requests against the real server: acks, pushes to other clients, idempotent
// retries, refusals and ownership.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { readRefusal } from '../src/core/index.js';
import { connect, rollPayload, until } from '../test-helpers/clients.mjs';
import { startTable } from '../test-helpers/server.mjs';

describe('requests against the real bridge', () => {
  let table;
  const open = [];
  const join = (...args) => {
    const c = connect(...args);
    open.push(c.client);
    return c;
  };

  before(async () => {
    table = await startTable();
  });
  after(async () => {
    for (const client of open) client.close();
    await table?.cleanup();
  });

  test('welcome carries the world, the role and the actors', async () => {
    const { client, seen } = join(table.server.url, table.world.gm_token, 'gm');
    assert.equal(await client.ready(), true);
    const welcome = seen.welcome[0];
    assert.equal(welcome.protocol, 1);
    assert.equal(welcome.role, 'gm');
    assert.equal(welcome.world.system, 'o3d10');
    const ids = welcome.actors.map((a) => a.id);
    assert.ok(ids.includes('aldara') && ids.includes('bruno'), ids.join());
    assert.equal(client.state, 'connected');
    assert.deepEqual(
      seen.connection.map((c) => c.state),
      ['connected'],
    );
  });

  test('a roll is acked and its card pushed to another client at the table', async () => {
    const gm = join(table.server.url, table.world.gm_token, 'gm');
    const player = join(table.server.url, table.world.player_token, 'ana');
    await gm.client.ready();
    await player.client.ready();
    const ack = await gm.client.request('roll', rollPayload());
    assert.equal(ack.ok, true, JSON.stringify(ack));
    assert.equal(ack.duplicate, false);
    assert.equal(ack.cards.length, 1);
    const card = ack.cards[0];
    assert.equal(card.seq, ack.seq);
    const pushed = await until(() => player.seen.card.find((c) => c.card_id === card.card_id), 'the pushed card');
    assert.equal(pushed.seq, ack.seq);
    assert.match(pushed.html, /vtt-card/);
    await until(() => gm.seen.card.length === 1, 'the GM copy');
    assert.equal(player.client.seenSeq, ack.seq);
    // The player cannot know the burst of `seq` is over until a later push: it resumes before it.
    assert.equal(player.client.lastSeq, ack.seq - 1);
    // The GM's own ack comes after the broadcast, so its burst is known complete.
    assert.equal(gm.client.lastSeq, ack.seq);
  });

  test('retrying with the same id returns the stored result: one event', async () => {
    const gm = join(table.server.url, table.world.gm_token, 'gm');
    const watcher = join(table.server.url, table.world.player_token, 'beto');
    await gm.client.ready();
    await watcher.client.ready();
    const id = 'retry-0000-test-same-id';
    const first = await gm.client.request('roll', { ...rollPayload('bruno'), id });
    const second = await gm.client.request('roll', { ...rollPayload('bruno'), id });
    assert.equal(first.ok, true);
    assert.equal(second.ok, true);
    assert.equal(second.duplicate, true);
    assert.equal(second.seq, first.seq);
    assert.deepEqual(second.cards[0].dice, first.cards[0].dice);
    const next = await gm.client.request('roll', rollPayload('bruno'));
    assert.equal(next.seq, first.seq + 1, 'the duplicate made no event');
    await until(() => watcher.seen.card.length === 2, 'two cards');
    assert.deepEqual(
      watcher.seen.card.map((c) => c.seq),
      [first.seq, next.seq],
    );
    const reused = await gm.client.request('roll', { ...rollPayload('aldara'), id });
    assert.equal(reused.ok, false);
    assert.equal(reused.error.code, 'id_reused');
  });

  test('a bad token is refused with its code', async () => {
    const { client, seen } = join(table.server.url, 'not-a-token', 'x', { locale: 'en' });
    assert.equal(await client.ready(), false);
    assert.equal(client.state, 'refused');
    assert.equal(client.refusal.code, 'bad_token');
    assert.equal(client.refusal.message, 'The token opens no world.');
    assert.deepEqual(seen.connection.at(-1).error, client.refusal);
    const ack = await client.request('roll', rollPayload());
    assert.equal(ack.ok, false);
    assert.equal(ack.error.code, 'bad_token');
  });

  test("a refusal's code arrives as the connect_error's data", async () => {
    const socket = io(`${table.server.url}/vtt`, {
      transports: ['websocket'],
      parser,
      reconnection: false,
      auth: { token: 'not-a-token', user: 'x', protocol: 1, locale: 'en' },
    });
    try {
      const error = await new Promise((resolve) => socket.once('connect_error', resolve));
      assert.deepEqual(error.data, { code: 'bad_token', message: 'The token opens no world.' });
      assert.equal(error.message, 'The token opens no world.');
      assert.deepEqual(readRefusal(error), error.data);
    } finally {
      socket.close();
    }
  });

  test('readRefusal reads only the data, never text', () => {
    assert.deepEqual(readRefusal({ message: 'x', data: { code: 'bad_auth', message: 'Bad' } }), {
      code: 'bad_auth',
      message: 'Bad',
    });
    assert.deepEqual(readRefusal({ message: 'Bad', data: { code: 'bad_auth' } }), { code: 'bad_auth', message: 'Bad' });
    // A transport failure (or anything without a code in data) is no refusal.
    assert.equal(readRefusal(new Error('websocket error')), null);
    assert.equal(readRefusal({ message: "{'code': 'bad_token', 'message': 'x'}" }), null);
    assert.equal(readRefusal(undefined), null);
  });

  test('an unknown protocol version is refused', async () => {
    const { client } = join(table.server.url, table.world.gm_token, 'gm', { protocol: 2 });
    assert.equal(await client.ready(), false);
    assert.equal(client.state, 'refused');
    assert.equal(client.refusal.code, 'unsupported_protocol');
  });

  test('players act only for their own actors; the GM can give them one', async () => {
    const gm = join(table.server.url, table.world.gm_token, 'gm');
    const player = join(table.server.url, table.world.player_token, 'ana');
    await gm.client.ready();
    await player.client.ready();
    const refused = await player.client.request('roll', rollPayload('aldara'));
    assert.equal(refused.ok, false);
    assert.equal(refused.error.code, 'not_your_actor');
    const aldara = gm.client.welcome.actors.find((a) => a.id === 'aldara');
    const upsert = await gm.client.request('actor_upsert', {
      actor: { id: 'aldara', name: aldara.name, owner: 'ana', token: aldara.token, sheet: aldara.sheet },
    });
    assert.equal(upsert.ok, true, JSON.stringify(upsert));
    await until(() => player.seen.actor.find((u) => u.actor?.owner === 'ana'), 'the actor update');
    const ack = await player.client.request('roll', rollPayload('aldara'));
    assert.equal(ack.ok, true, JSON.stringify(ack));
  });

  test('a player cannot use GM events', async () => {
    const player = join(table.server.url, table.world.player_token, 'ana');
    await player.client.ready();
    const ack = await player.client.request('status_set', { actor: 'bruno', add: ['stunned'] });
    assert.equal(ack.ok, false);
    assert.equal(ack.error.code, 'gm_only');
  });

  test('a GM status change reaches everyone as a token status', async () => {
    const gm = join(table.server.url, table.world.gm_token, 'gm');
    const player = join(table.server.url, table.world.player_token, 'beto', { locale: 'en' });
    await gm.client.ready();
    await player.client.ready();
    const ack = await gm.client.request('status_set', { actor: 'bruno', add: ['stunned', 'prone'] });
    assert.equal(ack.ok, true, JSON.stringify(ack));
    const push = await until(() => player.seen.status.find((s) => s.actor === 'bruno'), 'token status');
    assert.deepEqual(push.statuses, ['prone', 'stunned']);
    assert.equal(typeof push.labels.stunned, 'string');
    const removed = await gm.client.request('status_set', { actor: 'bruno', remove: ['stunned', 'prone'] });
    assert.equal(removed.ok, true);
  });
});
