// The pure parts of the Foundry adapter: statuses, mapping, chat, buttons, combat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askHtml, checkTargets, readAsk, sheetHtml } from '../../src/foundry/buttons.js';
import { applyCardUpdate, cardMessageData, markUsed, rollsData, shouldCreateCard } from '../../src/foundry/chat.js';
import { initiatives, planCombat, trackerEvent } from '../../src/foundry/combat.js';
import { actorPayload, genericSheet, numbersUpdate, readMapping, swadeDamage, swadeSheet } from '../../src/foundry/mapping.js';
import { CORE_STATUS, SWADE_STATUS, statusToggles } from '../../src/foundry/statuses.js';
import { SWADE_ACTOR } from './fake-foundry.mjs';


test('SWADE actors become savage_worlds sheets', () => {
  const sheet = swadeSheet(SWADE_ACTOR);
  assert.deepEqual(sheet.attributes, { agilidad: 8, astucia: 6, espiritu: 6, fuerza: 6, vigor: 10 });
  assert.deepEqual(sheet.skills.pelear, { die: 8, modifier: 1, label: 'Fighting' });
  assert.equal(sheet.skills.notar.die, 6);
  assert.equal(sheet.skills.conducir_vehiculos.die, 4);
  assert.deepEqual(sheet.weapons.map((w) => [w.id, w.kind, w.damage]), [['colt_45', 'ranged', '2d6+1'], ['smg', 'ranged', '2d6'], ['knife', 'melee', 'd4']]);
  assert.equal(sheet.weapons[0].shots, 7);
  assert.deepEqual(sheet.edges, ['rapido']);
  assert.equal(sheet.wild_card, true);
  assert.equal(sheet.armor, 2);
  assert.deepEqual(swadeDamage('@str'), { melee: true, damage: '' });
  const payload = actorPayload({ foundrySystem: 'swade', bridgeSystem: 'savage_worlds', mapping: readMapping({}) }, SWADE_ACTOR);
  assert.equal(payload.id, 'Abc123');
  assert.equal(payload.owner, 'u-ana');
  assert.equal(actorPayload({ foundrySystem: 'swade', bridgeSystem: 'savage_worlds', mapping: readMapping({}) }, { ...SWADE_ACTOR, type: 'vehicle' }), null);
});

test('generic mapping reads Simple Worldbuilding attributes and JSON text', () => {
  const actor = {
    ...SWADE_ACTOR,
    system: { attributes: { attributes: { fuerza: { value: '5', label: 'Fuerza' }, agilidad: { value: 3 } }, bridge: { sheet: { value: '{"weapons": [{"id": "x"}]}' } } }, health: { value: 7 } },
  };
  const mapping = readMapping('{"actorTypes": ["character"], "sheet": {"attributes": "system.attributes.attributes", "*": "json:system.attributes.bridge.sheet.value"}, "numbers": {"pv": "system.health.value"}}');
  assert.deepEqual(genericSheet(actor, mapping), { attributes: { fuerza: 5, agilidad: 3 }, weapons: [{ id: 'x' }] });
  assert.deepEqual(numbersUpdate(mapping.numbers, { pv: 4, other: 1 }, actor), { 'system.health.value': 4 });
  assert.deepEqual(numbersUpdate(mapping.numbers, { pv: 7 }, actor), {});
  assert.throws(() => readMapping('{"sheet": {"a": 3}}'), /sheet.a/);
  assert.throws(() => genericSheet({ ...actor, system: { x: 'no json' } }, readMapping({ sheet: { '*': 'json:system.x' } })), /not JSON/);
});

test('canonical statuses toggle the running system ids, leaving others alone', () => {
  const swade = new Set(['shaken', 'incapacitated', 'dead', 'bleeding-out', 'prone', 'holding', 'blind']);
  assert.deepEqual(statusToggles(SWADE_STATUS, swade, ['stunned', 'bleeding'], new Set(['prone', 'blind'])), [
    { id: 'shaken', active: true },
    { id: 'bleeding-out', active: true },
    { id: 'prone', active: false },
  ]);
  const core = new Set(['stun', 'dead', 'unconscious', 'prone', 'restrain']);
  assert.deepEqual(statusToggles(CORE_STATUS, core, ['incapacitated', 'grappled'], new Set(['unconscious'])), [{ id: 'restrain', active: true }]);
  assert.deepEqual(statusToggles(CORE_STATUS, core, [], new Set(['stun', 'unconscious'])), [
    { id: 'stun', active: false },
    { id: 'unconscious', active: false },
  ]);
});

const CARD = {
  seq: 2,
  card_id: '2.0',
  world: 'w',
  kind: 'attack',
  speaker: 'agente',
  speaker_name: 'Agente <Vega>',
  target: 'ogro',
  visibility: 'public',
  locale: 'es',
  title: 't',
  outcome: null,
  dice: [
    { sides: 8, faces: [8, 3], role: 'trait', kept: true, group: 0, total: 11 },
    { sides: 6, faces: [5], role: 'wild', kept: false, group: 0, total: 5 },
    { sides: 6, faces: [2], role: 'damage', kept: true, group: 1, total: 2 },
  ],
  sections: [],
  actions: [{ id: 'damage-0', label: 'Daño', actor: 'agente', allowed: 'owner', once: true, used: false, ask: [] }],
  html: '<div class="vtt-card"><button type="button" class="vtt-follow" data-card="2.0" data-action="damage-0">Daño</button><button type="button" class="vtt-follow" data-card="2.0" data-action="soak">S</button></div>',
  text: '',
};

test('cards become ChatMessage data with Roll data per dice group', () => {
  const rolls = rollsData(CARD.dice);
  assert.equal(rolls.length, 2);
  assert.equal(rolls[0].total, 11);
  assert.equal(rolls[0].terms.length, 3);
  assert.deepEqual(rolls[0].terms[0].results, [{ result: 8, active: true, exploded: true }, { result: 3, active: true }]);
  assert.deepEqual(rolls[0].terms[2].results, [{ result: 5, active: false, discarded: true }]);
  assert.equal(rolls[0].terms[1].class, 'OperatorTerm');
  const data = cardMessageData(CARD, { gmIds: ['gm1'], speakerActorId: 'F1' });
  assert.deepEqual(data.whisper, []);
  assert.equal(data.speaker.alias, 'Agente <Vega>');
  assert.equal(data.flags['vtt-bridge'].card, '2.0');
  assert.deepEqual(cardMessageData({ ...CARD, visibility: 'gm' }, { gmIds: ['gm1', 'gm2'], speakerActorId: null }).whisper, ['gm1', 'gm2']);
  const marked = markUsed(CARD.html, ['damage-0']);
  assert.match(marked, /data-action="damage-0" disabled>/);
  assert.doesNotMatch(marked, /data-action="soak" disabled/);
  assert.equal(markUsed(marked, ['damage-0']), marked);
  assert.equal(applyCardUpdate({ used: ['a'] }, ['a']), null);
  assert.deepEqual(applyCardUpdate({ used: ['a'] }, ['a', 'b']).used, ['a', 'b']);
});

test('one client creates each card: the active GM, else the first active user for public cards', () => {
  assert.equal(shouldCreateCard(CARD, { me: 'gm1', activeGM: 'gm1', activeUsers: ['a', 'gm1'] }), true);
  assert.equal(shouldCreateCard(CARD, { me: 'gm2', activeGM: 'gm1', activeUsers: ['a', 'gm1', 'gm2'] }), false);
  assert.equal(shouldCreateCard(CARD, { me: 'a', activeGM: null, activeUsers: ['b', 'a'] }), true);
  assert.equal(shouldCreateCard(CARD, { me: 'b', activeGM: null, activeUsers: ['b', 'a'] }), false);
  assert.equal(shouldCreateCard({ ...CARD, visibility: 'gm' }, { me: 'a', activeGM: null, activeUsers: ['a'] }), false);
});

test('buttons: escaped markup, ask forms, params and targets', () => {
  const ask = [
    { name: 'modifier', kind: 'int', label: 'Mod', required: false, default: 0, minimum: -20, maximum: 20, choices: [], choice_labels: [] },
    { name: 'range', kind: 'choice', label: 'Range', required: false, default: 'short', minimum: 0, maximum: 0, choices: ['short', 'long'], choice_labels: ['Corta', 'Larga'] },
    { name: 'free', kind: 'bool', label: 'Free', required: false, default: false, minimum: 0, maximum: 0, choices: [], choice_labels: [] },
  ];
  const actor = {
    id: 'a"1',
    name: 'A',
    owner: null,
    statuses: [],
    numbers: {},
    buttons: [
      { label: '<b>Sigilo</b>', event: 'roll', action: 'trait', params: {}, group: 'Habilidades', ask, min_targets: 0, max_targets: 0, gm_only: false },
      { label: 'Secret', event: 'gm_action', action: 'benny', params: {}, group: null, ask: [], min_targets: 0, max_targets: 0, gm_only: true },
    ],
  };
  const player = sheetHtml(actor, { role: 'player', title: 'T' });
  assert.match(player, /&lt;b&gt;Sigilo/);
  assert.doesNotMatch(player, /Secret/);
  assert.match(player, /data-vtt-bridge-actor="a&quot;1"/);
  assert.match(sheetHtml(actor, { role: 'gm', title: 'T' }), /Secret/);
  const form = askHtml(ask);
  assert.match(form, /<option value="short" selected>Corta/);
  assert.match(form, /type="number"/);
  assert.deepEqual(readAsk(ask, { p_modifier: '-2', p_range: 'long', p_free: true }), { modifier: -2, range: 'long', free: true });
  assert.deepEqual(readAsk(ask, { p_modifier: '', p_range: '', p_free: false }), {});
  const attack = { ...actor.buttons[0], min_targets: 1, max_targets: 2 };
  assert.deepEqual(checkTargets(attack, ['x', 'y', 'x']), { ok: true, targets: ['x', 'y'] });
  assert.equal(checkTargets(attack, []).ok, false);
  assert.deepEqual(checkTargets(actor.buttons[0], ['x']), { ok: true, targets: [] });
});

test('combat_state becomes combat tracker operations', () => {
  const ids = { luca: 'F1', vito: 'F2', nadie: null, rocco: 'F3' };
  const slot = (actors, label = null) => ({ actors: actors.map((id) => ({ id, name: id })), label, data: {} });
  const who = (actor, extra = {}) => ({ actor, name: actor, group: null, hidden: false, held: false, acted: false, declared: {}, ...extra });
  const state = {
    seq: 9, world: 'w', active: true, round: 2, phase: 'act', turn: 1, current: ['vito', 'rocco'], next_to_declare: null,
    order: [slot(['luca'], 'K♠'), slot(['vito', 'rocco'], '7♥'), slot(['nadie'])],
    combatants: [who('luca', { acted: true }), who('vito', { hidden: true }), who('rocco'), who('nadie')],
    data: {},
  };
  assert.deepEqual(Object.fromEntries(initiatives(state)), { luca: 3, vito: 2, rocco: 2, nadie: 1 });
  assert.deepEqual(planCombat(state, null, (id) => ids[id]), [
    { op: 'create' },
    { op: 'add', actorId: 'F1', initiative: 3, hidden: false },
    { op: 'add', actorId: 'F2', initiative: 2, hidden: true },
    { op: 'add', actorId: 'F3', initiative: 2, hidden: false },
    { op: 'turn', round: 2, turn: 1, actorId: 'F2' },
  ]);
  const current = { id: 'c', round: 2, turn: 0, combatants: [
    { id: 'x1', actorId: 'F1', initiative: 3, hidden: false },
    { id: 'x3', actorId: 'F3', initiative: 1, hidden: false },
    { id: 'x9', actorId: 'F9', initiative: 1, hidden: false },
  ] };
  assert.deepEqual(planCombat(state, current, (id) => ids[id]), [
    { op: 'add', actorId: 'F2', initiative: 2, hidden: true },
    { op: 'set', id: 'x3', initiative: 2, hidden: false },
    { op: 'remove', id: 'x9' },
    { op: 'turn', round: 2, turn: 1, actorId: 'F2' },
  ]);
  // A held actor off a shared slot has no initiative; while declaring nobody acts.
  const held = { ...state, phase: 'declare', current: [], order: [slot(['luca']), slot(['rocco'])], combatants: [who('luca'), who('vito', { held: true }), who('rocco')] };
  assert.equal(initiatives(held).get('vito'), null);
  const ops = planCombat(held, null, (id) => ids[id]);
  assert.deepEqual(ops.at(-1), { op: 'turn', round: 2, turn: 1, actorId: null });
  assert.deepEqual(planCombat({ ...state, active: false }, current, () => null), [{ op: 'end' }]);
  assert.deepEqual(planCombat({ ...state, active: false }, null, () => null), []);
  assert.equal(trackerEvent('round'), 'combat_next_round');
  assert.equal(trackerEvent('turn'), 'combat_next_turn');
});
