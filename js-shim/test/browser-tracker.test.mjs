// The combat tracker panel in two pages (the GM and a player who owns one
// actor) against the real server: start with chosen actors (one hidden), next
// turn through a round, hold and interrupt, add and remove, next round, end.
// Any system works: the test reads the order the server sends, and declares
// (with the form's defaults) when the system wants declarations.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchTableBrowser, openTablePage, recordRequests, trackerView, waitTrackerSeq } from '../test-helpers/browser.mjs';
import { connect } from '../test-helpers/clients.mjs';
import { startTable } from '../test-helpers/server.mjs';

const SYSTEM = process.env.VTT_TRACKER_SYSTEM || 'omerta';

describe(`the combat tracker in the table page (${SYSTEM})`, () => {
  let table;
  let browser;
  const errors = [];
  let actors;

  before(async () => {
    table = await startTable({ system: SYSTEM, diceSeed: 11 });
    const { client } = connect(table.server.url, table.world.gm_token, 'setup');
    assert.equal(await client.ready(), true);
    actors = client.welcome.actors.map((a) => ({ id: a.id, name: a.name }));
    assert.ok(actors.length >= 3, 'the demo world has three actors or more');
    // The player "ana" owns the first actor.
    const first = client.welcome.actors[0];
    const ack = await client.request('actor_upsert', {
      actor: { id: first.id, name: first.name, owner: 'ana', token: first.token, sheet: first.sheet },
    });
    assert.equal(ack.ok, true, JSON.stringify(ack));
    client.close();
    browser = await launchTableBrowser();
  });

  after(async () => {
    await browser?.close();
    await table?.cleanup();
  });

  test('GM and player drive one tracker and see the same state', async () => {
    const url = table.server.url;
    const gm = await openTablePage(browser, url, { token: table.world.gm_token, user: 'gm', name: 'Directora', errors });
    const player = await openTablePage(browser, url, { token: table.world.player_token, user: 'ana', name: 'Ana', errors });
    await recordRequests(gm);
    await recordRequests(player);
    const pages = [gm, player];
    const [mine, other, hiddenOne, spare] = actors.map((a) => a.id);

    async function press(page, selector) {
      const before = await page.evaluate(() => window.__acks.length);
      await page.click(selector);
      await page.waitForFunction((n) => window.__acks.length > n, before);
      const { event, ack } = await page.evaluate(() => window.__acks.at(-1));
      assert.equal(ack.ok, true, `${event}: ${JSON.stringify(ack.error)}`);
      await Promise.all(pages.map((p) => waitTrackerSeq(p, ack.seq)));
      return ack;
    }
    async function same() {
      const [a, b] = await Promise.all(pages.map(trackerView));
      // Players see hidden combatants under opaque ids (hidden-1...): compare through that mask.
      const masked = new Map();
      for (const slot of a.order) {
        for (const [i, id] of slot.actors.entries()) {
          const seen = b.order[a.order.indexOf(slot)]?.actors[i];
          if (seen && seen !== id && /^hidden-\d+$/.test(seen)) masked.set(id, seen);
        }
      }
      const mask = (id) => masked.get(id) ?? id;
      const strip = (v, m) => ({
        ...v,
        current: v.current?.map(m),
        held: v.held?.map(m),
        acted: v.acted?.map(m),
        order: v.order.map((s) => ({ label: s.label, actors: s.actors.map(m) })),
      });
      assert.deepEqual(strip(b, (id) => id), strip(a, mask), 'the player sees the GM state');
      assert.ok([...masked.keys()].every((id) => id === hiddenOne), 'only the hidden one is masked');
      return a;
    }
    /** Declarations, when the system wants them: the GM sends each with the form's defaults. */
    async function declareAll() {
      for (let i = 0; i < 20; i += 1) {
        const view = await trackerView(gm);
        if (view.phase !== 'declare') return;
        await gm.click('#tracker button[data-combat="declare"]');
        await gm.waitForSelector('#tracker form.tracker-declare');
        const before = await gm.evaluate(() => window.__acks.length);
        await gm.click('#tracker form.tracker-declare button[type="submit"]');
        await gm.waitForFunction((n) => window.__acks.length > n, before);
        const { ack } = await gm.evaluate(() => window.__acks.at(-1));
        assert.equal(ack.ok, true, `combat_declare: ${JSON.stringify(ack.error)}`);
        await Promise.all(pages.map((p) => waitTrackerSeq(p, ack.seq)));
      }
      assert.fail('declarations never ended');
    }

    // No combat: the GM sees the start form, the player only the idle line.
    for (const page of pages) await page.waitForSelector('#tracker[data-active="false"] .tracker-idle');
    assert.equal(await player.locator('#tracker form.tracker-start').count(), 0);
    await gm.check(`#tracker input[data-combat-pick="${mine}"]`);
    await gm.check(`#tracker input[data-combat-pick="${other}"]`);
    await gm.check(`#tracker input[data-combat-pick="${hiddenOne}"]`);
    await gm.check(`#tracker input[data-combat-hidden="${hiddenOne}"]`);
    await press(gm, '#tracker button[data-combat="start"]');
    await declareAll();
    let view = await same();
    assert.equal(view.active, true);
    assert.equal(view.round, 1);
    assert.deepEqual(view.order.flatMap((s) => s.actors).sort(), [mine, other, hiddenOne].sort());

    // The hidden combatant: its name for the GM (with a mark), unknown to the player.
    const hiddenName = actors.find((a) => a.id === hiddenOne).name;
    const nameIn = (page, id) => page.textContent(`#tracker .tracker-actor[data-actor="${id}"] .tracker-name`);
    assert.equal(await nameIn(gm, hiddenOne), hiddenName);
    assert.ok(await gm.locator(`#tracker .tracker-actor[data-actor="${hiddenOne}"] .tracker-mark--hidden`).count());
    // The player sees it under an opaque id the server gives (hidden-1), named Desconocido.
    assert.match(await nameIn(player, 'hidden-1'), /Desconocido/);
    assert.equal(await player.locator(`#tracker :text("${hiddenName}")`).count(), 0);
    assert.equal(await player.locator(`#tracker :text("${hiddenOne}")`).count(), 0, 'nor its id in the slot data');
    // Players get no GM controls.
    for (const kind of ['next_round', 'end', 'add', 'remove']) {
      assert.equal(await player.locator(`#tracker [data-combat="${kind}"]`).count(), 0, kind);
    }

    // Next turn through round 1: the current slot moves down, those done are marked.
    const slots = view.order.length;
    for (let turn = 0; turn < slots; turn += 1) {
      view = await same();
      assert.equal(view.round, 1);
      assert.ok(view.current.length > 0, `someone acts at turn ${turn}`);
      await press(gm, '#tracker button[data-combat="next_turn"]');
    }
    await declareAll();
    view = await same();
    assert.equal(view.round, 2, 'the last next turn starts round 2');

    // Round 2: when the player's actor's turn comes, the player holds, then interrupts.
    for (let i = 0; i < slots && !(await trackerView(gm)).current.includes(mine); i += 1) {
      await press(gm, '#tracker button[data-combat="next_turn"]');
    }
    view = await same();
    assert.equal(view.round, 2);
    assert.ok(view.current.includes(mine), `${mine} acts in round 2`);
    await player.waitForSelector('#tracker button[data-combat="next_turn"]'); // "end turn" for the owner
    await press(player, `#tracker button[data-combat="hold"][data-actor="${mine}"]`);
    view = await same();
    assert.ok(view.held.includes(mine), 'held');
    assert.ok(!view.current.includes(mine) || view.round === 3, 'someone else acts after the hold');
    for (const page of pages) await page.waitForSelector(`#tracker .tracker-actor[data-actor="${mine}"] .tracker-mark--held`);
    await press(player, `#tracker button[data-combat="interrupt"][data-actor="${mine}"]`);
    await declareAll();
    view = await same();
    assert.deepEqual(view.current, [mine], 'the interrupting actor acts now');
    assert.deepEqual(view.held, []);
    // A player cannot move the GM's turns for someone else's actor.
    assert.equal(await player.locator(`#tracker button[data-combat="hold"][data-actor="${other}"]`).count(), 0);

    // Add and remove a combatant (when the world has one more actor).
    if (spare) {
      await gm.selectOption('#tracker select[data-combat-add]', spare);
      await press(gm, '#tracker button[data-combat="add"]');
      view = await same();
      assert.ok(view.order.some((s) => s.actors.includes(spare)), 'added to the order');
      await press(gm, `#tracker button[data-combat="remove"][data-actor="${spare}"]`);
      view = await same();
      assert.ok(!view.order.some((s) => s.actors.includes(spare)), 'removed');
    }

    // Next round (a hold on the last turn may have started the next one already), then the end.
    const roundBefore = view.round;
    await press(gm, '#tracker button[data-combat="next_round"]');
    await declareAll();
    view = await same();
    assert.equal(view.round, roundBefore + 1);
    assert.deepEqual(view.held, []);
    await gm.screenshot({ path: '/tmp/tracker-gm.png' });
    await player.screenshot({ path: '/tmp/tracker-player.png' });
    await press(gm, '#tracker button[data-combat="end"]');
    for (const page of pages) await page.waitForSelector('#tracker[data-active="false"]');
    await gm.waitForSelector('#tracker form.tracker-start');

    // A page opened now sees the same (welcome.combat): start again, open a third page.
    await gm.check(`#tracker input[data-combat-pick="${mine}"]`);
    await gm.check(`#tracker input[data-combat-pick="${other}"]`);
    const started = await press(gm, '#tracker button[data-combat="start"]');
    const late = await openTablePage(browser, url, { token: table.world.player_token, user: 'ana', name: 'Ana', errors });
    await waitTrackerSeq(late, started.seq);
    const [a, c] = await Promise.all([trackerView(gm), trackerView(late)]);
    assert.deepEqual({ ...c, order: c.order.map((s) => s.actors) }, { ...a, order: a.order.map((s) => s.actors) });
    assert.equal(await gm.locator('#errors .error').count(), 0, await gm.textContent('#errors'));
    assert.equal(await player.locator('#errors .error').count(), 0, await player.textContent('#errors'));
    assert.deepEqual(errors, []);
  });
});
