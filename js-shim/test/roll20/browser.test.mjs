// The Roll20 userscript in headless Chromium, on a static page reproducing the
// Roll20 chat DOM it uses, against the real Python bridge: a `!vtt` chat
// command makes a card appear in the chat (speaking as the character); a card
// button makes the follow-up card appear; a GM status change reaches the Mod
// script (the real one, on the fake API inside the page) as markers; without
// a Mod script the userscript says statuses appear in cards only.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { connect } from '../../test-helpers/clients.mjs';
import { REPO, startTable } from '../../test-helpers/server.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHIM = join(REPO, 'js-shim');
const FILES = {
  '/': join(SHIM, 'test/roll20/fixture.html'),
  '/fake-roll20-api.js': join(SHIM, 'test-helpers/fake-roll20-api.js'),
  '/vtt-bridge.user.js': join(SHIM, 'dist/roll20/vtt-bridge.user.js'),
  '/vtt-bridge-mod.js': join(SHIM, 'dist/roll20/vtt-bridge-mod.js'),
};

/** Serves the fixture and the built scripts on 127.0.0.1 (another origin than the bridge). */
async function serveFixture() {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const file = FILES[path];
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8';
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(await readFile(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

describe('the Roll20 userscript in a browser', () => {
  let table;
  let fixture;
  let browser;
  const errors = [];

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `No Chromium at ${CHROMIUM}. Install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium.`,
    );
    await promisify(execFile)('node', ['build-roll20.mjs'], { cwd: SHIM });
    // Seeded dice: the same attacks hit every run, however loaded the machine is.
    table = await startTable({ diceSeed: 7 });
    const { client } = connect(table.server.url, table.world.gm_token, 'setup');
    assert.equal(await client.ready(), true);
    const aldara = client.welcome.actors.find((a) => a.id === 'aldara');
    const { id, name, token, sheet } = aldara;
    const ack = await client.request('actor_upsert', { actor: { id, name, owner: 'ana', token, sheet } });
    assert.equal(ack.ok, true, JSON.stringify(ack));
    client.close();
    fixture = await serveFixture();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close();
    await fixture?.close();
    await table?.cleanup();
  });

  async function openPage(query, config) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    // Every wait below is on a condition; its bound is for a loaded 2-core machine.
    context.setDefaultTimeout(CARD_WAIT_MS);
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(`${config.user}: ${error.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`${config.user}: ${msg.text()}`);
    });
    page.on('dialog', (dialog) => dialog.accept(dialog.defaultValue()));
    await page.addInitScript((c) => {
      window.vttBridgeRoll20Config = c;
    }, { url: table.server.url, locale: 'es', modTimeoutMs: 2500, ...config });
    await page.goto(`${fixture.url}/?${new URLSearchParams(query)}`);
    await page.waitForSelector('body[data-vtt-connection="connected"]');
    return page;
  }

  const cards = (page) => page.locator('#textchat .content .message .sheet-rolltemplate-default');

  async function say(page, line) {
    await page.fill('#textchat-input textarea', line);
    await page.click('#textchat-input .btn');
  }

  // Bounded waits, long enough for a loaded machine (the whole suite runs Chromium and servers).
  const CARD_WAIT_MS = 45000;

  /** Waits for a new card after `before` cards; a readable failure with what the page showed. */
  async function waitForNewCard(page, before, what) {
    await page
      .waitForFunction((n) => document.querySelectorAll('#textchat .content .sheet-rolltemplate-default').length > n, before, {
        timeout: CARD_WAIT_MS,
      })
      .catch(async (error) => {
        const notices = await page.locator('.vtt-notice').allTextContents();
        throw new Error(`${what}: ${error.message}; notices: ${notices.join(' | ')}`);
      });
  }

  /** Attacks Bruno until a hit's card carries a follow-up button; returns that button. */
  async function attackUntilHit(page) {
    for (let tries = 0; tries < 20; tries += 1) {
      const before = await cards(page).count();
      await say(page, '!vtt aldara attack espada @bruno');
      await waitForNewCard(page, before, `attack ${tries + 1}`);
      const links = cards(page).last().locator('a[href^="!vtt-card "]');
      if (await links.count()) return links.first();
    }
    throw new Error('no attack hit in 20 tries');
  }

  async function pressAndWaitForFollowUp(page, button) {
    const before = await cards(page).count();
    await button.click();
    await waitForNewCard(page, before, 'the follow-up card');
  }

  test('GM: a chat command posts a card, a card button its follow-up, a status reaches the Mod script', async () => {
    // The Mod answers the ping within the page; the long bound only keeps a slow page
    // from deciding "no Mod" before the answer is rendered.
    const gm = await openPage(
      { mod: '1', player: '-Pgm' },
      { token: table.world.gm_token, user: 'gm', name: 'Directora', modTimeoutMs: 20000 },
    );
    await gm.waitForSelector('body[data-vtt-mod="yes"]');
    await gm.waitForSelector('.vtt-notice:text("script Mod activo")');

    // A typed !vtt command: the request goes to the bridge, never to Roll20's API.
    await say(gm, '!vtt aldara skill sigilo level=normal modifier=1');
    await gm.waitForSelector('.sheet-rolltemplate-default caption:text("Sigilo")');
    assert.equal(await cards(gm).count(), 1);
    const first = gm.locator('#textchat .content .message.general').filter({ has: gm.locator('.sheet-rolltemplate-default') }).first();
    assert.equal(await first.locator('.by').textContent(), 'Aldara:', 'the card speaks as the character');
    assert.equal(await gm.inputValue('#speakingas'), 'player|-Pgm', 'the speaking-as choice is put back');
    let apiLines = await gm.evaluate(() => window.roll20Fixture.apiLines);
    assert.ok(!apiLines.some((l) => l.startsWith('!vtt ')), apiLines.join('\n'));
    assert.ok(apiLines.some((l) => l.startsWith('!vtt-bridge ping ')), 'the userscript pinged the Mod script');

    // A readable error for a bad command, shown only here.
    await say(gm, '!vtt nadie sigilo');
    await gm.waitForSelector('.vtt-notice--error:text("ningún actor «nadie»")');

    // Attacks until one hits: its card carries a follow-up button, whose click
    // becomes a card_action and its result the next card.
    const button = await attackUntilHit(gm);
    const linesBefore = (await gm.evaluate(() => window.roll20Fixture.apiLines)).length;
    await pressAndWaitForFollowUp(gm, button);
    apiLines = await gm.evaluate(() => window.roll20Fixture.apiLines);
    assert.ok(!apiLines.slice(linesBefore).some((l) => l.startsWith('!vtt-card')), 'the click never reached Roll20');
    await gm.waitForFunction(() => document.querySelector('a[href^="!vtt-card "].vtt-used'));

    // An initiative card joins the Roll20 turn order; the GM can add by hand too.
    await say(gm, '!vtt aldara initiative');
    await say(gm, '!vtt turn bruno 5');
    const order = await gm.waitForFunction(() => {
      const list = JSON.parse(Campaign().get('turnorder') || '[]');
      return list.length === 2 && list;
    });
    const entries = await order.jsonValue();
    assert.deepEqual(entries.map((e) => e.id).sort(), ['-Mtok1', '-Mtok2']);
    assert.ok(Number(entries.find((e) => e.id === '-Mtok1').pr) > 0, JSON.stringify(entries));

    // A status change from elsewhere (another GM client) lands on Bruno's token.
    const { client } = connect(table.server.url, table.world.gm_token, 'other-gm');
    assert.equal(await client.ready(), true);
    const ack = await client.request('status_set', { actor: 'bruno', add: ['stunned', 'prone'] });
    assert.equal(ack.ok, true, JSON.stringify(ack));
    client.close();
    await gm.waitForFunction(() => {
      const api = window.roll20Fixture.api;
      const bruno = findObjs({ _type: 'graphic', name: 'Bruno' })[0];
      return api && bruno.get('status_pummeled') === true && bruno.get('status_back-pain') === true;
    });
    const bars = await gm.evaluate(() => {
      const bruno = findObjs({ _type: 'graphic', name: 'Bruno' })[0];
      return [bruno.get('bar1_value'), bruno.get('bar1_max'), bruno.get('status_dead')];
    });
    assert.equal(typeof bars[0], 'number');
    assert.equal(bars[1], 24);
    assert.equal(bars[2], false);
    // The bridge's combat tracker fills Roll20's turn order (through the Mod script):
    // whoever acts now on top, the round last; next turn rotates it; the end clears it.
    const { client: tracker } = connect(table.server.url, table.world.gm_token, 'tracker-gm');
    assert.equal(await tracker.ready(), true);
    const started = await tracker.request('combat_start', { actors: ['aldara', 'bruno'], groups: {}, hidden: [] });
    assert.equal(started.ok, true, JSON.stringify(started));
    const turnOrder = () => gm.evaluate(() => JSON.parse(Campaign().get('turnorder') || '[]'));
    const tokenOf = { '-Mtok1': 'aldara', '-Mtok2': 'bruno' };
    const filled = await gm.waitForFunction(() => {
      const list = JSON.parse(Campaign().get('turnorder') || '[]');
      return list.length === 3 && list.at(-1).id === '-1' && list;
    });
    let order20 = await filled.jsonValue();
    assert.deepEqual(order20.slice(0, 2).map((e) => tokenOf[e.id]).sort(), ['aldara', 'bruno']);
    assert.equal(order20[2].pr, '1', 'round 1');
    const top = order20[0].id;
    const next = await tracker.request('combat_next_turn', {});
    assert.equal(next.ok, true, JSON.stringify(next));
    await gm.waitForFunction((was) => JSON.parse(Campaign().get('turnorder') || '[]')[0]?.id !== was, top);
    order20 = await turnOrder();
    assert.equal(order20.length, 3);
    const ended = await tracker.request('combat_end', {});
    assert.equal(ended.ok, true, JSON.stringify(ended));
    await gm.waitForFunction(() => Campaign().get('turnorder') === '[]');
    tracker.close();

    // The Mod's pong was hidden; no Mod refusal was shown.
    assert.equal(await gm.locator('.message:text("only the GM")').count(), 0);
    await gm.screenshot({ path: '/tmp/roll20-gm.png' });
  });

  test('player without a Mod script: told statuses stay in cards; own cards posted; buttons work', async () => {
    const player = await openPage(
      { mod: '0', player: '-Pana' },
      { token: table.world.player_token, user: 'ana', name: 'Ana', post: 'own' },
    );
    await player.waitForSelector('body[data-vtt-mod="no"]');
    await player.waitForSelector('.vtt-notice--warning:text("solo aparecen en las tarjetas")');

    await say(player, '!vtt help aldara');
    await player.waitForSelector('.vtt-notice--help:text("!vtt aldara skill sigilo")');

    await say(player, '!vtt aldara fisico');
    await player.waitForSelector('.sheet-rolltemplate-default caption:text("Físico")');

    // Someone else's actor: the bridge refuses, the player reads why.
    await say(player, '!vtt bruno fisico');
    await player.waitForSelector('.vtt-notice--error:text("not_your_actor")');
    assert.equal(await cards(player).count(), 1);

    // The player's own attack card and its follow-up (posted from the acks).
    const button = await attackUntilHit(player);
    await pressAndWaitForFollowUp(player, button);
    // Pressing a used once-only button again is refused here, before the bridge.
    const used = player.locator('a[href^="!vtt-card "].vtt-used');
    await used.first().waitFor();
    const href = await used.first().getAttribute('href');
    const [, card, action] = href.split(' ');
    const again = await player.evaluate(([c, a]) => window.vttBridgeRoll20.pressCardButton(c, a), [card, action]);
    assert.equal(again.ok, false);
    await player.waitForSelector('.vtt-notice--error:text("ya se usó")');
    assert.deepEqual(errors, []);
  });
});
