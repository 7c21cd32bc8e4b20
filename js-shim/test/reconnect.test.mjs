// A server crash: SIGKILL, restart on the same data dir and port. A client
// kept away meanwhile (by a proxy that refuses it) reconnects with its
// last_seq and gets every push it missed, exactly once.

import assert from 'node:assert/strict';
import { createServer, connect as tcpConnect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { connect, rollPayload, until } from '../test-helpers/clients.mjs';
import { startServer, startTable } from '../test-helpers/server.mjs';

/** A TCP proxy on 127.0.0.1 that can refuse new connections (a network cut). */
async function startProxy(targetPort) {
  let blocked = false;
  const sockets = new Set();
  const server = createServer((inbound) => {
    if (blocked) {
      inbound.destroy();
      return;
    }
    const outbound = tcpConnect(targetPort, '127.0.0.1');
    sockets.add(inbound).add(outbound);
    inbound.pipe(outbound).pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on('error', close).on('close', close);
    outbound.on('error', close).on('close', close);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    block: () => {
      blocked = true;
    },
    unblock: () => {
      blocked = false;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('reconnecting after a server crash', () => {
  let table;
  let proxy;
  let restarted;
  const open = [];
  before(async () => {
    table = await startTable();
    proxy = await startProxy(table.server.port);
  });
  after(async () => {
    for (const client of open) client.close();
    await proxy?.close();
    await restarted?.stop('SIGKILL');
    await table?.cleanup();
  });

  test('missed pushes are replayed from last_seq, none twice', async () => {
    const { url, port } = table.server;
    const away = connect(proxy.url, table.world.gm_token, 'gm', { timeoutMs: 4000, retries: 3 });
    const active = connect(url, table.world.gm_token, 'gm2');
    open.push(away.client, active.client);
    const raw = [];
    away.client.socket.on('chat_card', (card) => raw.push(card.seq));
    await away.client.ready();
    await active.client.ready();

    const first = await away.client.request('roll', rollPayload('aldara'));
    const second = await active.client.request('roll', rollPayload('bruno'));
    await until(() => away.seen.card.length === 2, 'two cards before the crash');
    assert.equal(away.client.lastSeq, first.seq, 'its own ack completes seq 1');

    proxy.block();
    await table.server.stop('SIGKILL');
    await until(() => away.client.state === 'reconnecting', 'reconnecting state');
    restarted = await startServer(table.data, { port });
    await active.client.ready(8000);
    assert.equal(active.client.state, 'connected');

    // Meanwhile, the table goes on without the client that is away.
    const missed = [];
    for (const actor of ['aldara', 'bruno']) {
      const ack = await active.client.request('roll', rollPayload(actor));
      assert.equal(ack.ok, true, JSON.stringify(ack));
      missed.push(ack.seq);
    }
    const status = await active.client.request('status_set', { actor: 'bruno', add: ['stunned'] });
    assert.equal(status.ok, true, JSON.stringify(status));
    missed.push(status.seq);
    // A request made while away waits for the reconnection, then goes through.
    const pending = away.client.request('roll', rollPayload('aldara', 'destreza'));
    const resumeFrom = away.client.lastSeq;

    proxy.unblock();
    const own = await pending;
    assert.equal(own.ok, true, JSON.stringify(own));
    await until(() => away.client.state === 'connected', 'reconnected');
    await until(() => away.seen.card.some((c) => c.seq === own.seq), 'the card of the delayed request');
    await new Promise((resolve) => setTimeout(resolve, 300));

    assert.equal(away.seen.welcome.length, 2);
    // Seq 2 arrived, but nothing after it did before the crash: resume from 1.
    assert.equal(resumeFrom, first.seq);
    assert.ok(
      raw.filter((seq) => seq === second.seq).length === 2,
      `the server sent seq ${second.seq} again and the client dropped it: ${raw}`,
    );
    const cardSeqs = away.seen.card.map((c) => c.seq);
    assert.deepEqual(cardSeqs, [first.seq, second.seq, missed[0], missed[1], own.seq], 'every card once, in order');
    assert.equal(new Set(away.seen.card.map((c) => c.card_id)).size, cardSeqs.length);
    const stunned = away.seen.status.filter((s) => s.actor === 'bruno' && s.seq === status.seq);
    assert.equal(stunned.length, 1, 'the missed token status, once');
    assert.deepEqual(stunned[0].statuses, ['stunned']);
    const states = away.seen.connection.map((c) => c.state);
    assert.deepEqual(states.slice(0, 2), ['connected', 'reconnecting']);
    assert.equal(states.at(-1), 'connected');
  });
});
