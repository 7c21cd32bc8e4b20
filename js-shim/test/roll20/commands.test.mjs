// The `!vtt` grammar and the card's chat text, without a browser.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isVttCommand, parseCommand } from '../../src/roll20/commands.js';
import { formatCard, parseCardButton } from '../../src/roll20/format.js';

const ask = (name, kind, extra = {}) => ({ name, kind, required: false, choices: [], choice_labels: [], ...extra });
const ACTORS = [
  {
    id: 'aldara',
    name: 'Aldara',
    token: '-Mtok1',
    buttons: [
      { event: 'roll', action: 'skill', label: 'Sigilo', params: { skill: 'sigilo' }, ask: [ask('level', 'choice', { choices: ['facil', 'normal', 'dificil'], choice_labels: ['Fácil', 'Normal', 'Difícil'] }), ask('modifier', 'int'), ask('give_token', 'bool')], min_targets: 0, max_targets: 1 },
      { event: 'roll', action: 'skill', label: 'Advertir/Notar', params: { skill: 'advertir_notar' }, ask: [], min_targets: 0, max_targets: 0 },
      { event: 'attack', action: 'attack', label: 'Ballesta', params: { weapon: 'ballesta' }, ask: [ask('modifier', 'int')], min_targets: 1, max_targets: 1 },
      { event: 'attack', action: 'attack', label: 'Ballesta en cuerpo a cuerpo', params: { weapon: 'ballesta', in_melee: true }, ask: [], min_targets: 1, max_targets: 1 },
      { event: 'attack', action: 'attack', label: 'Espada', params: { weapon: 'espada' }, ask: [], min_targets: 1, max_targets: 1 },
      { event: 'damage_apply', action: 'damage_apply', label: 'Aplicar daño', params: {}, ask: [ask('amount', 'int', { required: true })], min_targets: 0, max_targets: 0 },
    ],
  },
  { id: 'bandido_1', name: 'Bandido Uno', token: '-Mtok9', buttons: [] },
];

describe('the !vtt grammar', () => {
  test('recognises the command but not the bridge ones', () => {
    assert.equal(isVttCommand('!vtt aldara sigilo'), true);
    assert.equal(isVttCommand('  !vtt'), true);
    assert.equal(isVttCommand('!vtt-bridge ping'), false);
    assert.equal(isVttCommand('!vtt-card 1.0 x'), false);
  });

  test('picks the button by action, preset value, label; converts asked params', () => {
    const r = parseCommand('!vtt aldara skill sigilo level=Difícil modifier=-2 give_token=sí', ACTORS);
    assert.equal(r.ok, true, r.message);
    assert.equal(r.event, 'roll');
    assert.deepEqual(r.payload, { actor: 'aldara', action: 'skill', params: { skill: 'sigilo', level: 'dificil', modifier: -2, give_token: true }, targets: [] });
    assert.deepEqual(parseCommand('!vtt Aldara "Advertir/Notar"', ACTORS).payload.params, { skill: 'advertir_notar' });
    assert.deepEqual(parseCommand('!vtt roll -Mtok1 sigilo', ACTORS).payload.actor, 'aldara');
  });

  test('attacks with targets by id, quoted name or token id; the simplest button wins a tie', () => {
    let r = parseCommand('!vtt attack aldara attack ballesta @"Bandido Uno" modifier=1', ACTORS);
    assert.equal(r.event, 'attack');
    assert.deepEqual(r.payload, { actor: 'aldara', action: 'attack', params: { weapon: 'ballesta', modifier: 1 }, targets: ['bandido_1'] });
    r = parseCommand('!vtt aldara ballesta in_melee=true @-Mtok9', ACTORS);
    assert.deepEqual(r.payload.params, { weapon: 'ballesta', in_melee: true });
    assert.deepEqual(r.payload.targets, ['bandido_1']);
    assert.equal(parseCommand('!vtt aldara espada @bandido_1', ACTORS).payload.params.weapon, 'espada');
  });

  test('explains what is wrong', () => {
    assert.match(parseCommand('!vtt nadie sigilo', ACTORS).message, /ningún actor «nadie»/);
    assert.match(parseCommand('!vtt aldara volar', ACTORS).message, /ninguna acción «volar»/);
    assert.match(parseCommand('!vtt aldara sigilo level=imposible', ACTORS).message, /facil, normal, dificil/);
    assert.match(parseCommand('!vtt aldara sigilo modifier=dos', ACTORS).message, /entero/);
    assert.match(parseCommand('!vtt aldara sigilo color=rojo', ACTORS).message, /«color» no es un parámetro/);
    assert.match(parseCommand('!vtt aldara damage_apply', ACTORS).message, /Falta amount/);
    assert.match(parseCommand('!vtt aldara skill', ACTORS).message, /varias acciones/);
    assert.match(parseCommand('!vtt aldara sigilo @nadie', ACTORS, 'en').message, /no target "nadie"/);
    assert.match(parseCommand('!vtt help aldara', ACTORS).help.join('\n'), /!vtt aldara attack ballesta/);
  });
});

describe('a card as chat text', () => {
  const card = {
    card_id: '42.0', locale: 'es', visibility: 'public', title: 'Tirada de {{Sigilo}} [[1d6]]', speaker_name: 'Aldara',
    dice: [{ faces: [5], kept: true }, { faces: [9], kept: false }],
    sections: [{ title: null, lines: ['Dado objetivo: el medio', 'Total 13', 'Total 13'] }],
    outcome: { label: 'Fallo' },
    actions: [{ id: 'oppose', label: 'Responder: Advertir/Notar' }],
  };

  test('is the default template with inert text and API buttons', () => {
    const text = formatCard(card);
    assert.ok(text.startsWith('&{template:default} {{name=Tirada de &#123;&#123;Sigilo&#125;&#125; &#91;&#91;1d6&#93;&#93;}}'), text);
    assert.match(text, /\{\{Dados=5 &#40;9&#41;\}\}/);
    assert.match(text, /\{\{Dado objetivo=el medio\}\}/);
    assert.match(text, /\{\{ =Total 13\}\} \{\{ &#8203;=Total 13\}\}/);
    assert.match(text, /\{\{Acciones=\[Responder&#58; Advertir\/Notar\]\(!vtt-card 42\.0 oppose\)\}\}/);
    assert.ok(formatCard({ ...card, visibility: 'gm' }).startsWith('/w gm &{template:default}'));
  });

  test('buttons parse back, encoded or not', () => {
    assert.deepEqual(parseCardButton('!vtt-card 42.0 oppose'), { card: '42.0', action: 'oppose' });
    assert.deepEqual(parseCardButton('!vtt-card%2042.0%20damage.0'), { card: '42.0', action: 'damage.0' });
    assert.equal(parseCardButton('!other 1.0 x'), null);
  });
});
