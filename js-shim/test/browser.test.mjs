// The built-in table page in headless Chromium against the real server: a GM
// and a player who owns an actor; a sheet button makes a card both see; a GM
// status change shows on the token in both pages.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { connect, until } from '../test-helpers/clients.mjs';
import { REPO, python, startTable } from '../test-helpers/server.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const XSS_NAME = '<img src=x onerror="window.__xss=1">Bandido';

describe('the table page in a browser', () => {
  let table;
  let browser;
  const errors = [];

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `No Chromium at ${CHROMIUM}. Install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium.`,
    );
    await promisify(execFile)('npm', ['run', '--silent', 'build'], { cwd: join(REPO, 'js-shim') });
    table = await startTable({ diceSeed: 7 });
    // The GM gives Aldara to the player "ana" and renames the bandit with markup.
    const { client } = connect(table.server.url, table.world.gm_token, 'setup');
    assert.equal(await client.ready(), true);
    const actors = Object.fromEntries(client.welcome.actors.map((a) => [a.id, a]));
    for (const [id, changes] of [
      ['aldara', { owner: 'ana' }],
      ['bandido', { name: XSS_NAME }],
    ]) {
      if (!actors[id]) continue;
      const { name, owner, token, sheet } = actors[id];
      const ack = await client.request('actor_upsert', { actor: { id, name, owner, token, sheet, ...changes } });
      assert.equal(ack.ok, true, JSON.stringify(ack));
    }
    client.close();
    // chromium.launch gives every run a fresh, temporary user-data dir of its own.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  after(async () => {
    await browser?.close();
    await table?.cleanup();
  });

  async function openPage(token, user, name) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(`${user}: ${error.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`${user}: ${msg.text()}`);
    });
    const query = new URLSearchParams({ token, user, name, locale: 'es' });
    await page.goto(`${table.server.url}/?${query}`);
    await page.waitForSelector('body[data-connection="connected"]');
    await page.waitForSelector('.token[data-actor="aldara"]');
    return page;
  }

  test('a roll, a follow-up and a status change reach both pages', async () => {
    const gm = await openPage(table.world.gm_token, 'gm', 'Directora');
    const player = await openPage(table.world.player_token, 'ana', 'Ana');

    assert.equal(await gm.textContent('#role'), 'Director de Juego');
    assert.equal(await player.textContent('#role'), 'Jugador');
    assert.equal(await gm.isVisible('#gm-panel'), true);
    assert.equal(await player.isVisible('#gm-panel'), false);
    // The player's own actor is selected; its sheet shows its buttons by group.
    await player.waitForSelector('.sheet-head h2:text("Aldara")');
    const groups = await player.$$eval('.button-group h4', (nodes) => nodes.map((n) => n.textContent));
    assert.ok(groups.includes('Atributos'), groups.join());

    // Click "Físico": the ask form opens; pick a difficulty and a modifier; send.
    await player.click('.sheet-button[data-action="attribute"] >> nth=0');
    await player.waitForSelector('form.ask');
    await player.selectOption('form.ask select[data-param="level"]', 'normal');
    await player.fill('form.ask input[data-param="modifier"]', '1');
    await player.click('form.ask button[type="submit"]');
    await player.waitForSelector('form.ask', { state: 'detached' });

    for (const page of [player, gm]) {
      await page.waitForSelector('.chat-item .vtt-card');
      assert.equal(await page.locator('.chat-item').count(), 1);
      assert.match(await page.textContent('.chat-item .vtt-title'), /Físico/);
    }

    // An attack asks for its target; a hit's card has a follow-up button (damage)
    // that sends card_action; its result reaches both pages.
    let follow = null;
    for (let tries = 0; tries < 8 && !follow; tries += 1) {
      const before = await player.locator('.chat-item').count();
      await player.click('.sheet-button[data-event="attack"][title$="attack"] >> text=Espada');
      await player.waitForSelector('form.ask .ask-targets');
      await player.check('form.ask input[data-target="bruno"]');
      await player.click('form.ask button[type="submit"]');
      await player
        .waitForFunction((n) => document.querySelectorAll('.chat-item').length > n, before, { timeout: 5000 })
        .catch(async (error) => {
          await player.screenshot({ path: '/tmp/table-failed.png' });
          throw new Error(`${error.message}; errors shown: ${await player.textContent('#errors')}`);
        });
      const last = player.locator('.chat-item').last().locator('button.vtt-follow');
      if (await last.count()) follow = last.first();
    }
    assert.ok(follow, 'no attack hit in 8 tries');
    const cardsBefore = await gm.locator('.chat-item').count();
    const expected = { card: await follow.getAttribute('data-card'), action: await follow.getAttribute('data-action') };
    // This card's button, wherever newer cards put it ("damage.0": follow-up ids carry dots).
    const button = `.chat-item[data-card="${expected.card}"] button.vtt-follow[data-action="${expected.action}"]`;
    assert.equal(await gm.isEnabled(button), true);
    await player.evaluate(() => {
      const client = window.vttTable.state.client;
      const request = client.request;
      window.__sent = [];
      client.request = async (event, payload) => {
        const ack = await request(event, payload);
        window.__sent.push({ event, payload, ack });
        return ack;
      };
    });
    await player.click(button);
    await player.waitForFunction(() => window.__sent.length > 0);
    const [sent] = await player.evaluate(() => window.__sent);
    assert.equal(sent.event, 'card_action');
    assert.equal(sent.payload.card, expected.card);
    assert.equal(sent.payload.action, expected.action);
    assert.equal(sent.ack.ok, true, JSON.stringify(sent.ack));
    // The follow-up's result reaches both pages; the once-only button is disabled in
    // both: in the player's page by its ack, in the GM's by the card_update push.
    for (const page of [gm, player]) {
      await page.waitForFunction((n) => document.querySelectorAll('.chat-item').length > n, cardsBefore);
      await page.waitForSelector(`${button}:disabled`);
      assert.equal(await page.locator(`.chat-item[data-card="${expected.card}"]`).count(), 1);
    }
    const used = await gm.evaluate(
      ({ card, action }) => window.vttTable.chat().snapshot().find((c) => c.card_id === card).actions.find((a) => a.id === action).used,
      expected,
    );
    assert.equal(used, true, "the GM page's card knows the follow-up was used");
    assert.equal(await player.locator('#errors .error').count(), 0, await player.textContent('#errors'));

    // The GM selects Aldara and stuns her: the token icon changes in both pages.
    await gm.click('.token[data-actor="aldara"]');
    await gm.waitForSelector('#gm-panel .gm-actor:text("Aldara")');
    await gm.click('#gm-panel .gm-status[data-status="stunned"]');
    for (const page of [gm, player]) {
      await page.waitForSelector('.token[data-actor="aldara"] .status[data-status="stunned"]');
      const icon = await page.textContent('.token[data-actor="aldara"] .status[data-status="stunned"] .status-icon');
      assert.equal(icon, '✷\uFE0E');
    }
    await gm.waitForSelector('#gm-panel .gm-status--on[data-status="stunned"]');

    // A player may not change statuses: the error from the ack is shown.
    const refused = await player.evaluate(() =>
      window.vttTable.state.client.request('status_set', { actor: 'aldara', add: ['prone'] }),
    );
    assert.equal(refused.error.code, 'gm_only');

    // Markup a GM typed in a name shows as text, never as HTML.
    if (await gm.locator('.token[data-actor="bandido"]').count()) {
      assert.equal(await gm.textContent('.token[data-actor="bandido"] .token-name'), XSS_NAME);
      assert.equal(await gm.evaluate(() => window.__xss), undefined);
    }

    // A player acting for someone else's actor sees the server's error.
    await player.click('.token[data-actor="bruno"]');
    await player.click('.sheet-button[data-action="attribute"] >> nth=0');
    await player.click('form.ask button[type="submit"]');
    await player.waitForSelector('#errors .error strong:text("not_your_actor")');
    await player.click('form.ask button:not([type="submit"])');

    await gm.screenshot({ path: '/tmp/table.png' });
    await player.click('.token[data-actor="aldara"]');
    await player.screenshot({ path: '/tmp/table-player.png' });
    assert.deepEqual(errors, []);
  });

  test('a new page loads the whole chat; a reload resumes from sessionStorage', async () => {
    // What the GM may see of the log, as a client asking for all of it gets it.
    const { client, seen } = connect(table.server.url, table.world.gm_token, 'all', { lastSeq: 0 });
    assert.equal(await client.ready(), true);
    const worldSeq = client.welcome.seq;
    const pushes = () => [...seen.card, ...seen.status, ...seen.actor, ...seen.card_update];
    await until(() => pushes().some((p) => p.seq === worldSeq), 'the whole backlog');
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.close();
    const history = seen.card.map((c) => c.card_id);
    assert.ok(history.length >= 3, `a few cards by now: ${history}`);
    const usedCard = seen.card_update[0];
    assert.ok(usedCard, 'the first test used a follow-up');

    const page = await openPage(table.world.gm_token, 'gm', 'Directora');
    assert.equal(await page.evaluate(() => window.vttTable.state.resumedFrom), 0, 'nothing stored: asks for everything');
    await page.waitForFunction((n) => document.querySelectorAll('.chat-item').length === n, history.length);
    const ids = () => page.$$eval('.chat-item', (items) => items.map((i) => i.dataset.card));
    assert.deepEqual(await ids(), history, 'every card once, in order');
    const usedButton = `.chat-item[data-card="${usedCard.card_id}"] button.vtt-follow[data-action="${usedCard.used[0]}"]`;
    assert.equal(await page.isDisabled(usedButton), true, 'a used follow-up from history is disabled');
    // The replayed token pushes do not roll the tokens back: Aldara is still stunned.
    await page.waitForSelector('.token[data-actor="aldara"] .status[data-status="stunned"]');

    const stored = await page.waitForFunction(
      (seq) => {
        const key = Object.keys(sessionStorage).find((k) => k.startsWith('vtt-bridge.table.seq.'));
        const value = key && JSON.parse(sessionStorage.getItem(key));
        return value && value.lastSeq >= seq - 1 ? value : null;
      },
      worldSeq,
    );
    const { lastSeq, cards } = await stored.jsonValue();
    assert.ok(lastSeq > 0 && lastSeq <= worldSeq, `stored last_seq ${lastSeq}`);
    assert.deepEqual(
      cards.map((c) => c.card_id),
      history,
    );

    await page.reload();
    await page.waitForSelector('body[data-connection="connected"]');
    assert.equal(await page.evaluate(() => window.vttTable.state.resumedFrom), lastSeq, 'the reload resumes');
    await page.waitForTimeout(300);
    assert.deepEqual(await ids(), history, 'the same cards after the reload, none twice');
    assert.equal(await page.isDisabled(usedButton), true);

    // A live roll after the reload shows once.
    await page.click('.token[data-actor="bruno"]');
    await page.click('.sheet-button[data-action="attribute"] >> nth=0');
    await page.click('form.ask button[type="submit"]');
    await page.waitForFunction((n) => document.querySelectorAll('.chat-item').length === n + 1, history.length);
    await page.waitForTimeout(200);
    assert.equal(new Set(await ids()).size, history.length + 1);
    assert.deepEqual(errors, []);
  });

  test('the session played in the pages exports and replays with no divergence', async () => {
    const run = promisify(execFile);
    const py = python();
    const { stdout: session } = await run(py, ['-m', 'bridge', 'export', table.world.world_id, '--data', table.data], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
    const events = session.trim().split('\n').length - 1;
    assert.ok(events >= 5, `the pages played ${events} events`);
    const file = join(table.data, 'session.jsonl');
    await writeFile(file, session);
    const { stdout: report } = await run(py, ['-m', 'bridge', 'replay', file], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
    assert.match(report, new RegExp(`summary: events ${events}, cards \\d+, refused 0, divergences 0`));
  });
});
