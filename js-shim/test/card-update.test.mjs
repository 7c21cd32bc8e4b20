// Follow-up buttons against the real server: a once-only follow-up pressed by
// one client reaches every other client as a `card_update` push, exactly once,
// and a client joining later with `last_seq: 0` gets the whole history.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSeqTracker } from '../src/core/index.js';
import { connect, until } from '../test-helpers/clients.mjs';
import { startTable } from '../test-helpers/server.mjs';

describe('card_update pushes', () => {
  let table;
  const open = [];
  const join = (...args) => {
    const c = connect(...args);
    open.push(c.client);
    return c;
  };

  before(async () => {
    table = await startTable({ diceSeed: 7 });
  });
  after(async () => {
    for (const client of open) client.close();
    await table?.cleanup();
  });

  async function attackUntilFollowUp(client) {
    for (let tries = 0; tries < 20; tries += 1) {
      const ack = await client.request('attack', {
        actor: 'aldara',
        action: 'attack',
        params: { weapon: 'espada', modifier: 3 },
        targets: ['bruno'],
      });
      assert.equal(ack.ok, true, JSON.stringify(ack));
      const card = ack.cards.find((c) => c.actions.some((a) => a.once && a.id.startsWith('damage')));
      if (card) return card;
    }
    throw new Error('no attack hit in 20 tries');
  }

  test('a used follow-up reaches the others once; a late joiner replays all of it', async () => {
    const gm = join(table.server.url, table.world.gm_token, 'gm');
    const other = join(table.server.url, table.world.gm_token, 'gm2');
    assert.equal(await gm.client.ready(), true);
    assert.equal(await other.client.ready(), true);

    const card = await attackUntilFollowUp(gm.client);
    const follow = card.actions.find((a) => a.id.startsWith('damage'));
    assert.match(follow.id, /\./, 'follow-up ids carry a dot (damage.0)');
    const pressed = await gm.client.request('card_action', { card: card.card_id, action: follow.id, params: {} });
    assert.equal(pressed.ok, true, JSON.stringify(pressed));
    const again = await gm.client.request('card_action', { card: card.card_id, action: follow.id, params: {} });
    assert.equal(again.ok, false);
    assert.equal(again.error.code, 'follow_up_used');

    await until(() => other.seen.card_update.length === 1, 'the card_update at the other client');
    assert.deepEqual(
      { ...other.seen.card_update[0], world: undefined },
      { seq: pressed.seq, world: undefined, card_id: card.card_id, used: [follow.id], released: [], undone: false },
    );
    await until(() => gm.seen.card_update.length === 1, 'the card_update at the presser');
    assert.equal(other.seen.card_update[0].world, gm.client.welcome.world.id);

    // A client that asks for everything (last_seq 0) gets each card once, the used
    // follow-up marked, and the card_update; connecting again from its last_seq, nothing twice.
    const late = join(table.server.url, table.world.gm_token, 'late', { lastSeq: 0 });
    assert.equal(await late.client.ready(), true);
    const seqNow = pressed.seq;
    await until(() => late.seen.card_update.length === 1, 'the replayed card_update');
    await until(() => late.seen.card.some((c) => c.seq === seqNow), 'the replayed cards');
    const ids = late.seen.card.map((c) => c.card_id);
    assert.equal(new Set(ids).size, ids.length, 'no card twice');
    const replayed = late.seen.card.find((c) => c.card_id === card.card_id);
    assert.equal(replayed.actions.find((a) => a.id === follow.id).used, true);
    assert.deepEqual(late.seen.card_update[0].used, [follow.id]);
    assert.equal(late.client.seenSeq, seqNow);
    // `synced` closes the backlog: lastSeq is the world's seq without waiting for a live push.
    await until(() => late.seen.synced.length === 1, 'the synced push');
    assert.equal(late.seen.synced[0].seq, seqNow);
    assert.equal(late.client.lastSeq, seqNow);

    // The same push delivered twice on the wire is handed over once.
    late.client.socket.listeners('card_update').forEach((fn) => fn(late.seen.card_update[0]));
    assert.equal(late.seen.card_update.length, 1);

    // The GM undoes the press: every client hears the button released.
    // The GM applies the damage, then undoes it: every client hears the button released.
    const damageCard = pressed.cards.find((c) => c.actions.some((a) => a.once));
    const apply = damageCard.actions.find((a) => a.once);
    const applied = await gm.client.request('card_action', { card: damageCard.card_id, action: apply.id, params: {} });
    assert.equal(applied.ok, true, JSON.stringify(applied));
    const undone = await gm.client.request('undo', { seq: applied.seq });
    assert.equal(undone.ok, true, JSON.stringify(undone));
    for (const c of [gm, other, late]) {
      await until(() => c.seen.card_update.some((u) => u.released?.includes(apply.id)), 'the released button');
    }
    const released = other.seen.card_update.find((u) => u.released?.length);
    assert.deepEqual(
      { card_id: released.card_id, used: released.used, seq: released.seq },
      { card_id: damageCard.card_id, used: [], seq: undone.seq },
    );
    const again2 = await other.client.request('card_action', { card: damageCard.card_id, action: apply.id, params: {} });
    assert.equal(again2.ok, true, JSON.stringify(again2));
  });
});

describe('the seq tracker with a backlog', () => {
  test('replayed pushes complete their seqs; synced completes the welcome', () => {
    const seqs = createSeqTracker(0); // lastSeq 0: the whole history
    seqs.welcome(5, true);
    assert.equal(seqs.highest(), 5);
    for (const seq of [1, 3, 5]) assert.equal(seqs.accept('card', { seq, card_id: `${seq}.0` }), true);
    assert.equal(seqs.accept('card_update', { seq: 5, card_id: '1.0', used: ['damage.0'] }), true);
    assert.equal(seqs.accept('card_update', { seq: 5, card_id: '1.0', used: ['damage.0'] }), false);
    assert.equal(seqs.accept('combat', { seq: 5, active: true }), true);
    assert.equal(seqs.accept('combat', { seq: 5, active: true }), false);
    assert.equal(seqs.resumeFrom(), 3, 'seq 5 may still have pushes to come');
    seqs.synced(5);
    assert.equal(seqs.resumeFrom(), 5, 'synced: the backlog (up to the welcome) is over');
    assert.equal(seqs.accept('card', { seq: 5, card_id: '5.0' }), false);
    assert.equal(seqs.accept('status', { seq: 7, actor: 'bruno' }), true);
    assert.equal(seqs.resumeFrom(), 5, 'seq 7 may still have pushes to come');
  });

  test('synced right after a welcome with nothing to replay completes the welcome', () => {
    const seqs = createSeqTracker(4);
    seqs.welcome(6, true); // seqs 5 and 6 had nothing for us (GM-only cards)
    assert.equal(seqs.resumeFrom(), 4, 'not before synced');
    seqs.synced(6);
    assert.equal(seqs.resumeFrom(), 6);
    assert.equal(seqs.highest(), 6);
    assert.equal(seqs.accept('card', { seq: 7, card_id: '7.0' }), true);
  });
});
