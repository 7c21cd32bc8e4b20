// The Roll20 Mod script under node, in a vm sandbox with a fake of the API
// calls it uses: it sets the status markers and bars the bridge asked for,
// keeps the turn order, and obeys token commands from the GM only.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import vm from 'node:vm';
import { bridgeCommand, statusCommand, turnOrderCommand } from '../../src/roll20/format.js';

const MOD = readFileSync(new URL('../../src/roll20-mod/vtt-bridge-mod.js', import.meta.url), 'utf8');
const FAKE = readFileSync(new URL('../../test-helpers/fake-roll20-api.js', import.meta.url), 'utf8');

function sandbox() {
  const context = vm.createContext({});
  vm.runInContext(FAKE, context);
  context.__options = { gms: ['gm1'] };
  const api = vm.runInContext('installFakeRoll20(globalThis, __options)', context);
  api.add('player', { _id: 'gm1', _displayname: 'Directora' });
  api.add('player', { _id: 'p1', _displayname: 'Ana' });
  const aldara = api.add('graphic', { _id: '-Mtok1', _subtype: 'token', _pageid: 'page1', name: 'Aldara' });
  const bruno = api.add('graphic', { _id: '-Mtok2', _subtype: 'token', _pageid: 'page1', name: 'Bruno' });
  vm.runInContext(MOD, context, { filename: 'vtt-bridge-mod.js' });
  api.fire('ready');
  return { api, aldara, bruno, context };
}

describe('the Roll20 Mod script', () => {
  test('registers and answers a ping to the sender', () => {
    const { api } = sandbox();
    assert.match(api.logs.join('\n'), /vtt-bridge Mod script .* ready/);
    api.say('gm1', bridgeCommand('ping', { nonce: 'abc123', secret: 'secretsecret' }));
    assert.equal(api.chat.at(-1).speaker, 'vtt-bridge');
    assert.equal(api.chat.at(-1).text, '/w gm vtt-bridge pong abc123 0.1.0');
    api.say('p1', bridgeCommand('ping', { nonce: 'n2' }));
    assert.equal(api.chat.at(-1).text, '/w "Ana" vtt-bridge pong n2 0.1.0');
  });

  test('sets the markers and bars a token_status asks for, by token id or by name', () => {
    const { api, aldara, bruno } = sandbox();
    api.say(
      'gm1',
      statusCommand({
        actor: 'aldara',
        token: '-Mtok1',
        name: 'Aldara',
        statuses: ['stunned', 'bleeding', 'wounded'],
        numbers: { heridas: 2, pv: 20, pv_max: 32, 'municion.ballesta': 1 },
      }),
    );
    assert.equal(aldara.get('status_pummeled'), true);
    assert.equal(aldara.get('status_bleeding-eye'), true);
    assert.equal(aldara.get('status_broken-heart'), 2, 'wounded shows the wound count');
    assert.equal(aldara.get('status_dead'), false);
    assert.equal(aldara.get('bar1_value'), 20);
    assert.equal(aldara.get('bar1_max'), 32);
    assert.equal(aldara.get('bar3_value'), 2);
    assert.equal(bruno.setCalls.length, 0);

    // Later: no longer stunned, now dead; found by name (no token id known).
    api.say('gm1', statusCommand({ actor: 'aldara', token: null, name: 'Aldara', statuses: ['dead'], numbers: {} }));
    assert.equal(aldara.get('status_pummeled'), false);
    assert.equal(aldara.get('status_dead'), true);
    assert.equal(aldara.get('status_broken-heart'), false);

    // Names with spaces and Roll20 syntax survive the URL encoding.
    const odd = api.add('graphic', { _id: '-Mtok3', _subtype: 'token', _pageid: 'page1', name: 'Bandido @{uno} [[1d6]]' });
    api.say('gm1', statusCommand({ actor: 'x', name: 'Bandido @{uno} [[1d6]]', statuses: ['prone'], numbers: { hp: 3 } }));
    assert.equal(odd.get('status_back-pain'), true);
    assert.equal(odd.get('bar1_value'), 3);
  });

  test('obeys token commands from the GM and trusted players only', () => {
    const { api, bruno } = sandbox();
    api.say('p1', statusCommand({ actor: 'bruno', token: '-Mtok2', name: 'Bruno', statuses: ['dead'] }));
    assert.equal(bruno.setCalls.length, 0);
    assert.match(api.chat.at(-1).text, /^\/w "Ana" vtt-bridge: only the GM/);
    api.say('gm1', bridgeCommand('trust', { name: 'Ana' }));
    api.say('p1', statusCommand({ actor: 'bruno', token: '-Mtok2', name: 'Bruno', statuses: ['dead'] }));
    assert.equal(bruno.get('status_dead'), true);
    // Only a GM may trust.
    api.say('p1', bridgeCommand('trust', { name: 'Ana' }));
  });

  test('keeps the turn order', () => {
    const { api, aldara, bruno } = sandbox();
    api.say('gm1', bridgeCommand('turn add', { token: '-Mtok1', pr: 12 }));
    api.say('gm1', bridgeCommand('turn add', { name: 'Bruno', pr: 17 }));
    let order = JSON.parse(api.campaign.get('turnorder'));
    assert.equal(JSON.stringify(order.map((e) => [e.id, e.pr])), JSON.stringify([[bruno.id, '17'], [aldara.id, '12']]));
    assert.equal(order[0]._pageid, 'page1');
    api.say('gm1', bridgeCommand('turn add', { token: '-Mtok1', pr: 20 }));
    order = JSON.parse(api.campaign.get('turnorder'));
    assert.equal(JSON.stringify(order.map((e) => [e.id, e.pr])), JSON.stringify([[aldara.id, '20'], [bruno.id, '17']]));
    api.say('gm1', bridgeCommand('turn remove', { token: '-Mtok2' }));
    assert.equal(JSON.parse(api.campaign.get('turnorder')).length, 1);
    api.say('gm1', '!vtt-bridge turn clear');
    assert.equal(api.campaign.get('turnorder'), '[]');
  });

  test("fills the turn order from the bridge's combat tracker", () => {
    const { api, aldara, bruno } = sandbox();
    const actors = new Map([
      ['aldara', { id: 'aldara', name: 'Aldara', token: '-Mtok1' }],
      ['bruno', { id: 'bruno', name: 'Bruno', token: null }],
      ['malo', { id: 'malo', name: 'Malo', token: '-Mtok9' }],
      ['suelto', { id: 'suelto', name: 'Sin ficha', token: null }],
    ]);
    const slot = (ids, label) => ({ actors: ids.map((id) => ({ id, name: actors.get(id).name })), label, data: {} });
    const combat = {
      seq: 4, active: true, round: 2, phase: 'act', turn: 1, current: ['bruno', 'malo'],
      order: [slot(['aldara'], 'K♠'), slot(['bruno', 'malo'], '7♥'), slot(['suelto'], null)],
      combatants: ['aldara', 'bruno', 'malo', 'suelto'].map((actor) => ({ actor, hidden: actor === 'malo' })),
    };
    api.say('gm1', turnOrderCommand(combat, actors, { unknown: 'Desconocido', round: 'Asalto' }));
    const order = JSON.parse(api.campaign.get('turnorder'));
    // From whoever acts now, round-robin; the hidden one by a custom name; the round last.
    assert.deepEqual(
      order.map((e) => [e.id, e.pr, e.custom]),
      [
        [bruno.id, '7♥', ''],
        ['-1', '7♥', 'Desconocido'],
        ['-1', '1', 'Sin ficha'],
        [aldara.id, 'K♠', ''],
        ['-1', '2', 'Asalto'],
      ],
    );
    assert.equal(order[0]._pageid, 'page1');
    // While declaring, the order from the top; the end clears it.
    api.say('gm1', turnOrderCommand({ ...combat, phase: 'declare', current: [] }, actors));
    assert.equal(JSON.parse(api.campaign.get('turnorder'))[0].id, aldara.id);
    api.say('gm1', turnOrderCommand({ active: false }, actors));
    assert.equal(api.campaign.get('turnorder'), '[]');
    // Players may not set it.
    api.say('p1', turnOrderCommand(combat, actors));
    assert.equal(api.campaign.get('turnorder'), '[]');
  });

  test('relays a macro\'s !vtt line to the player who sent it, with their secret', () => {
    const { api } = sandbox();
    api.say('p1', '!vtt aldara sigilo');
    assert.equal(api.chat.length, 0, 'no relay before the userscript registered a secret');
    api.say('p1', bridgeCommand('ping', { nonce: 'n', secret: 'sekret-123456' }));
    api.say('p1', '!vtt aldara skill sigilo @bruno');
    const last = api.chat.at(-1).text;
    const match = /^\/w "Ana" vtt-bridge relay sekret-123456 (\d+) (\S+)$/.exec(last);
    assert.ok(match, last);
    assert.equal(decodeURIComponent(match[2]), 'aldara skill sigilo @bruno');
  });
});
