// Markup a player or GM typed never runs, one test per place it is shown: the
// table page (headless Chromium), the Foundry adapter's sheets and chat
// messages, the Roll20 userscript's chat lines and the Roll20 Mod script's
// whispers. The cards come from the real server, with markup in an actor's
// name, its sheet labels, a user's display name and a parameter's name.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import vm from 'node:vm';
import { chromium } from 'playwright-core';
import { cardMessageData } from '../src/foundry/chat.js';
import { askHtml, sheetHtml } from '../src/foundry/buttons.js';
import { bridgeCommand, formatCard } from '../src/roll20/format.js';
import { connect, until } from '../test-helpers/clients.mjs';
import { startTable } from '../test-helpers/server.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const EVIL = '<img src=x onerror="window.__xss=1">';
const EVIL_ATTR = '"><svg onload="window.__xss=2">';
const EVIL_ROLL20 = '}} {{x=[[1d6]]}} [x](!vtt-bridge token) @{y} &{template:z}';
const RAW_TAG = /<(img|svg|script)\b/i;

describe('markup typed by players is inert everywhere it is shown', () => {
  let table;
  let actor;
  let card;

  before(async () => {
    table = await startTable({ diceSeed: 11 });
    const { client, seen } = connect(table.server.url, table.world.gm_token, 'gm', { name: EVIL });
    try {
      assert.equal(await client.ready(), true);
      const aldara = client.welcome.actors.find((a) => a.id === 'aldara');
      const sheet = structuredClone(aldara.sheet);
      // sheet labels hold at most 60 characters
      for (const skill of Object.values(sheet.skills)) skill.label = `${EVIL_ATTR}}} {{x=[[1d6]]}}`;
      for (const weapon of Object.values(sheet.weapons)) weapon.label = `${EVIL}[x](!vtt)`;
      const upsert = await client.request('actor_upsert', {
        actor: { id: 'aldara', name: `${EVIL}Aldara${EVIL_ROLL20}`.slice(0, 100), owner: 'ana', token: aldara.token, sheet },
      });
      assert.equal(upsert.ok, true, JSON.stringify(upsert));
      actor = await until(() => seen.actor.map((u) => u.actor).find((a) => a?.id === 'aldara' && a.name.includes('<img')), 'the actor update');
      const button = actor.buttons.find((b) => b.event === 'roll' && b.action === 'skill');
      assert.ok(button, 'no skill button');
      const ack = await client.request('roll', { actor: 'aldara', action: button.action, params: button.params });
      assert.equal(ack.ok, true, JSON.stringify(ack));
      [card] = ack.cards;
      assert.match(card.html, /&lt;img src=x/, 'the card does not carry the name');
    } finally {
      client.close();
    }
  });

  after(async () => {
    await table?.cleanup();
  });

  test('the table page shows it as text', async () => {
    assert.ok(existsSync(CHROMIUM), `No Chromium at ${CHROMIUM}: sudo apt-get install chromium`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      const query = new URLSearchParams({ token: table.world.player_token, user: 'ana', name: EVIL, locale: 'es' });
      await page.goto(`${table.server.url}/?${query}`);
      await page.waitForSelector('body[data-connection="connected"]');
      await page.waitForSelector('.chat-item .vtt-card');
      await page.waitForSelector('.token[data-actor="aldara"]');
      // The player rolls from the page, and sends a parameter whose name is markup.
      await page.click('.sheet-button[data-action="skill"] >> nth=0');
      await page.click('form.ask button[type="submit"]');
      await page.waitForFunction(() => document.querySelectorAll('.chat-item').length >= 2);
      // The server's own messages quote what a player typed (an unknown parameter's
      // name): the page shows an error with markup in every field as text.
      const refused = await page.evaluate(
        (name) => window.vttTable.state.client.request('roll', { actor: 'aldara', action: 'skill', params: { [name]: 1 } }),
        EVIL.slice(0, 40),
      );
      assert.equal(refused.ok, false);
      assert.ok(refused.error.message.includes('<img'), refused.error.message);
      await page.evaluate((error) => {
        const client = window.vttTable.state.client;
        const request = client.request;
        client.request = async () => {
          client.request = request;
          return { ok: false, error };
        };
      }, refused.error);
      await page.click('.sheet-button[data-action="skill"] >> nth=0');
      await page.click('form.ask button[type="submit"]');
      await page.waitForSelector('#errors .error');
      assert.ok((await page.textContent('#errors .error')).includes('<img'));
      const found = await page.evaluate(() => ({
        xss: window.__xss,
        tags: document.querySelectorAll('img[src="x"], svg, script:not([src])').length,
        token: document.querySelector('.token[data-actor="aldara"] .token-name')?.textContent,
        speaker: document.querySelector('.chat-item .vtt-speaker')?.textContent,
        whoami: document.querySelector('#whoami')?.textContent,
        buttons: [...document.querySelectorAll('.sheet-button')].map((b) => b.textContent).join(' '),
      }));
      assert.equal(found.xss, undefined, 'markup ran');
      assert.equal(found.tags, 0, 'markup became elements');
      assert.ok(found.token.startsWith(EVIL), found.token);
      assert.ok(found.speaker.startsWith(EVIL), found.speaker);
      assert.equal(found.whoami, EVIL);
      assert.ok(found.buttons.includes(EVIL_ATTR), found.buttons);
    } finally {
      await browser.close();
    }
  });

  test('the Foundry adapter escapes sheets and forms and posts the escaped card', () => {
    for (const role of ['gm', 'player']) {
      const html = sheetHtml(actor, { role, title: actor.name });
      assert.doesNotMatch(html, RAW_TAG, html);
      assert.match(html, /&lt;img src=x/);
      assert.doesNotMatch(html, /"><svg/);
    }
    for (const button of actor.buttons) assert.doesNotMatch(askHtml(button.ask), RAW_TAG);
    const evilAsk = [{ name: EVIL_ATTR, kind: 'choice', label: EVIL, required: false, default: EVIL_ATTR, minimum: 0, maximum: 0, choices: [EVIL_ATTR], choice_labels: [EVIL] }];
    assert.doesNotMatch(askHtml(evilAsk), RAW_TAG);
    const data = cardMessageData(card, { gmIds: ['gm1'], speakerActorId: null });
    assert.equal(data.content, card.html);
    assert.doesNotMatch(data.content, RAW_TAG);
  });

  test('the Roll20 userscript types inert text: no tags, rolls, references or extra buttons', () => {
    const line = formatCard({ ...card, title: `${EVIL}${EVIL_ROLL20}` }, { withSpeaker: true });
    assert.doesNotMatch(line, RAW_TAG);
    assert.doesNotMatch(line, /\[\[|@\{|&\{template:z/);
    const opened = line.match(/\{\{/g).length;
    assert.equal(opened, line.match(/\}\}/g).length);
    const rows = [...line.matchAll(/\{\{([^=}]*)=/g)].map((m) => m[1]);
    assert.equal(rows.length, opened, `a row was injected: ${line}`);
    for (const link of line.matchAll(/\]\(([^)]*)\)/g)) assert.match(link[1], /^!vtt-card \d+\.\d+ /);
  });

  test('the Roll20 Mod script whispers to a player whose name is markup without breaking out', () => {
    const MOD = readFileSync(new URL('../src/roll20-mod/vtt-bridge-mod.js', import.meta.url), 'utf8');
    const FAKE = readFileSync(new URL('../test-helpers/fake-roll20-api.js', import.meta.url), 'utf8');
    const context = vm.createContext({});
    vm.runInContext(FAKE, context);
    context.__options = { gms: ['gm1'] };
    const api = vm.runInContext('installFakeRoll20(globalThis, __options)', context);
    api.add('player', { _id: 'gm1', _displayname: 'Directora' });
    api.add('player', { _id: 'p1', _displayname: `Ana" ${EVIL} /direct ${EVIL}` });
    vm.runInContext(MOD, context, { filename: 'vtt-bridge-mod.js' });
    api.fire('ready');
    api.say('p1', bridgeCommand('ping', { nonce: 'n1' }));
    const text = api.chat.at(-1).text;
    const target = /^\/w "([^"]*)" /.exec(text);
    assert.ok(target, text);
    assert.equal(text.split('"').length, 3, `the whisper target broke out of its quotes: ${text}`);
  });
});
