// Issue 8's table test: two full rounds of a Savage Worlds fight played through
// the table page, with the real server's tracker and the savage_worlds hooks.
// The GM (one page) stuns Agente Vega (Shaken) and leaves the Ogre bleeding out
// with the GM status tools, starts combat from the tracker panel (the two
// terrorists as one group: one card), and moves the turns; the player "ana"
// (another page) holds with Brunhilda on her turn, interrupts, and attacks from
// her sheet. Seen in the pages: the Bleeding Out roll before each deal, the
// Shaken recovery roll at Agente Vega's turn, a Joker in the first two rounds
// (`--dice-seed 15`, chosen by trial: the Joker comes up in round 1), the hold
// and the interrupt, and both pages showing the same tracker all along.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchTableBrowser, openTablePage, recordRequests, trackerView, waitTrackerSeq } from '../test-helpers/browser.mjs';
import { connect } from '../test-helpers/clients.mjs';
import { startTable } from '../test-helpers/server.mjs';

const DICE_SEED = 15;
const FIGHTERS = ['agente', 'barbara', 'ogro', 'terrorista1', 'terrorista2'];

describe('a Savage Worlds fight through the table page (issue 8)', () => {
  let table;
  let browser;
  const errors = [];

  before(async () => {
    table = await startTable({ system: 'savage_worlds', diceSeed: DICE_SEED });
    const { client } = connect(table.server.url, table.world.gm_token, 'setup');
    assert.equal(await client.ready(), true);
    const barbara = client.welcome.actors.find((a) => a.id === 'barbara');
    const ack = await client.request('actor_upsert', {
      actor: { id: 'barbara', name: barbara.name, owner: 'ana', token: barbara.token, sheet: barbara.sheet },
    });
    assert.equal(ack.ok, true, JSON.stringify(ack));
    client.close();
    browser = await launchTableBrowser();
  });

  after(async () => {
    await browser?.close();
    await table?.cleanup();
  });

  test('two rounds with a Joker, a hold, a Shaken recovery and a bleeding-out roll', async () => {
    const url = table.server.url;
    const gm = await openTablePage(browser, url, { token: table.world.gm_token, user: 'gm', name: 'Directora', errors });
    const player = await openTablePage(browser, url, { token: table.world.player_token, user: 'ana', name: 'Ana', errors });
    const pages = [gm, player];
    for (const page of pages) {
      await recordRequests(page);
      // Every combat_state the page hears, to look back at the rounds.
      await page.evaluate(() => {
        window.__states = [];
        window.vttTable.state.client.on('combat', (s) => window.__states.push(s));
      });
    }

    async function settle(page, before) {
      await page.waitForFunction((n) => window.__acks.length > n, before, { timeout: 20000 });
      const { event, ack } = await page.evaluate(() => window.__acks.at(-1));
      assert.equal(ack.ok, true, `${event}: ${JSON.stringify(ack.error)}`);
      return ack;
    }
    async function press(page, selector) {
      const before = await page.evaluate(() => window.__acks.length);
      await page.click(selector);
      const ack = await settle(page, before);
      if (ack.seq) await Promise.all(pages.map((p) => p.waitForFunction((s) => (window.vttTable.state.client.seenSeq ?? 0) >= s, ack.seq)));
      return ack;
    }
    async function same() {
      const [a, b] = await Promise.all(pages.map(trackerView));
      assert.deepEqual({ ...b, order: b.order.map((s) => [s.label, s.actors]) }, { ...a, order: a.order.map((s) => [s.label, s.actors]) });
      return a;
    }
    const cards = (page, kind) =>
      page.$$eval(`.chat-item .vtt-card--${kind}`, (nodes) =>
        nodes.map((n) => ({ card: n.closest('.chat-item').dataset.card, seq: Number(n.closest('.chat-item').dataset.seq), text: n.textContent })),
      );

    // The GM's tools: Agente Vega is Shaken; the Ogre is down and bleeding out.
    for (const [actor, statuses] of [['agente', ['stunned']], ['ogro', ['bleeding', 'incapacitated']]]) {
      await gm.click(`#tokens .token[data-actor="${actor}"]`);
      await gm.waitForSelector(`#gm-panel .gm-actor`);
      for (const status of statuses) {
        await press(gm, `#gm-panel .gm-status[data-status="${status}"]`);
        for (const page of pages) await page.waitForSelector(`.token[data-actor="${actor}"] .status[data-status="${status}"]`);
      }
    }

    // Combat from the tracker panel: five fighters, the terrorists one group.
    for (const id of FIGHTERS) await gm.check(`#tracker input[data-combat-pick="${id}"]`);
    await gm.fill('#tracker input[data-combat-group="terrorista1"]', 'terroristas');
    await gm.fill('#tracker input[data-combat-group="terrorista2"]', 'terroristas');
    const started = await press(gm, '#tracker button[data-combat="start"]');
    await Promise.all(pages.map((p) => waitTrackerSeq(p, started.seq)));
    let view = await same();
    assert.equal(view.round, 1);
    assert.equal(view.phase, 'act');
    assert.ok(view.order.some((s) => s.actors.includes('terrorista1') && s.actors.includes('terrorista2')), 'the group shares one card');

    // Round 1's start: Bleeding Out rolled before the deal (in the same event, earlier card).
    for (const page of pages) await page.waitForSelector('.chat-item .vtt-card--bleeding');
    const bleeding1 = await cards(gm, 'bleeding');
    assert.equal(bleeding1.length, 1);
    assert.equal(bleeding1[0].seq, started.seq);
    const deal1 = (await cards(gm, 'combat_start'))[0];
    assert.ok(deal1, 'the deal card');
    assert.ok(Number(bleeding1[0].card.split('.')[1]) < Number(deal1.card.split('.')[1]), 'bleeding out before the deal');

    // Turns until Brunhilda's; Agente Vega's turn starts with his Shaken recovery roll.
    for (let i = 0; i < 6 && !(await trackerView(gm)).current.includes('barbara'); i += 1) {
      const ack = await press(gm, '#tracker button[data-combat="next_turn"]');
      await Promise.all(pages.map((p) => waitTrackerSeq(p, ack.seq)));
    }
    view = await same();
    assert.equal(view.round, 1, 'Brunhilda acts in round 1');
    assert.ok(view.current.includes('barbara'));

    // The player holds: on_hold on her token, the turn moves on.
    const held = await press(player, '#tracker button[data-combat="hold"][data-actor="barbara"]');
    await Promise.all(pages.map((p) => waitTrackerSeq(p, held.seq)));
    view = await same();
    assert.ok(view.held.includes('barbara'));
    for (const page of pages) await page.waitForSelector('#tracker .tracker-actor[data-actor="barbara"] .tracker-mark--held');
    // Then she interrupts whoever acts now: an opposed Athletics card, and she acts.
    const interrupted = await press(player, '#tracker button[data-combat="interrupt"][data-actor="barbara"]');
    await Promise.all(pages.map((p) => waitTrackerSeq(p, interrupted.seq)));
    view = await same();
    assert.deepEqual(view.current, ['barbara']);
    for (const page of pages) await page.waitForSelector('.chat-item .vtt-card--interrupt');
    // Her action, from her sheet: the long sword on Terrorist 1.
    await player.click('#tokens .token[data-actor="barbara"]');
    await player.click('.sheet-button[data-event="attack"][data-params*="espada_larga"]');
    await player.waitForSelector('form.ask .ask-targets');
    await player.check('form.ask input[data-target="terrorista1"]');
    const attackBefore = await player.evaluate(() => window.__acks.length);
    await player.click('form.ask button[type="submit"]');
    const attack = await settle(player, attackBefore);
    for (const page of pages) await page.waitForSelector(`.chat-item[data-seq="${attack.seq}"] .vtt-card--attack`);

    // The rest of round 1 and all of round 2, by the GM's next turn.
    for (let i = 0; i < 12 && (await trackerView(gm)).round < 3; i += 1) {
      const ack = await press(gm, '#tracker button[data-combat="next_turn"]');
      await Promise.all(pages.map((p) => waitTrackerSeq(p, ack.seq)));
      await same();
    }
    view = await same();
    assert.equal(view.round, 3, 'two full rounds played');

    // The Shaken recovery roll: once, at Agente Vega's turn in round 1; he recovered.
    const recovery = (await cards(gm, 'start_turn')).filter((c) => /Agente Vega/.test(c.text));
    assert.equal(recovery.length, 1, JSON.stringify(recovery));
    assert.match(recovery[0].text, /Espíritu/);
    for (const page of pages) {
      await page.waitForFunction(() => !document.querySelector('.token[data-actor="agente"] .status[data-status="stunned"]'));
    }
    // Bleeding Out: one roll at the start of each round, before its deal.
    const bleeding = await cards(gm, 'bleeding');
    const deals = await cards(gm, 'next_round');
    assert.ok(bleeding.length >= 2, `a roll each round while bleeding: ${bleeding.length}`);
    for (const roll of bleeding.slice(1)) {
      const deal = deals.find((d) => d.seq === roll.seq);
      assert.ok(deal, `round start ${roll.seq} deals after the roll`);
      assert.ok(Number(roll.card.split('.')[1]) < Number(deal.card.split('.')[1]));
    }
    assert.deepEqual(
      bleeding.map((c) => c.seq),
      [...new Set(bleeding.map((c) => c.seq))],
      'one Bleeding Out card per round',
    );

    // A Joker came up in the first two rounds: both pages' trackers showed it.
    for (const page of pages) {
      const jokers = await page.evaluate(() =>
        window.__states.filter((s) => s.active && s.round <= 2).flatMap((s) => s.order.filter((slot) => slot.data?.joker).map((slot) => [s.round, slot.label])),
      );
      assert.ok(jokers.length > 0, 'a Joker in rounds 1-2');
      assert.ok(jokers.every(([, label]) => /Comodín/.test(label)), JSON.stringify(jokers));
    }
    // Both pages ended on the same states, seq by seq.
    const [gmStates, playerStates] = await Promise.all(pages.map((p) => p.evaluate(() => window.__states.map((s) => [s.seq, s.round, s.turn, s.current.join()]))));
    assert.deepEqual(playerStates, gmStates);
    assert.equal(await player.locator('#tracker .tracker-system').count(), 0, 'the deck stays with the GM');
    await gm.screenshot({ path: '/tmp/savage-worlds-gm.png' });
    await player.screenshot({ path: '/tmp/savage-worlds-player.png' });

    const ended = await press(gm, '#tracker button[data-combat="end"]');
    await Promise.all(pages.map((p) => waitTrackerSeq(p, ended.seq)));
    for (const page of pages) await page.waitForSelector('#tracker[data-active="false"]');
    for (const page of pages) {
      assert.equal(await page.locator('#errors .error').count(), 0, await page.textContent('#errors'));
    }
    assert.deepEqual(errors, []);
  });
});
