// The adapter (with a fake Foundry) against the real Python bridge: a GM's
// Foundry client syncs a SWADE actor, rolls a skill from its sheet, attacks two
// targeted tokens from the token HUD, and Shaken and wounds land on them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { createBridgeClient } from '../../src/core/index.js';
import { createAdapter } from '../../src/foundry/adapter.js';
import { createFoundryApi } from '../../src/foundry/foundry-api.js';
import { startTable } from '../../test-helpers/server.mjs';
import { SWADE_ACTOR, fakeDom, fakeFoundry, hookElement, until } from './fake-foundry.mjs';

let table;
before(async () => {
  // Seeded dice (`--dice-seed 10`, chosen by trial): the SMG burst hits, so its damage
  // follow-up is pressed (step 4), and that damage leaves Terrorista 1 in the fight, so the
  // GM's "hurt" (step 5) is not refused with actor_out as it was with unlucky OS dice.
  table = await startTable({ system: 'savage_worlds', diceSeed: 10 });
});
after(async () => {
  await table?.cleanup();
});

function boot({ me, users, token }) {
  const fake = fakeFoundry({ system: 'swade', me, users });
  const dom = fakeDom();
  const clients = [];
  const adapter = createAdapter({
    foundry: createFoundryApi(fake.g),
    dom,
    connect: (options) => {
      const c = createBridgeClient({ ...options, io, parser, timeoutMs: 4000, retries: 1, socketOptions: { reconnectionDelay: 100 } });
      clients.push(c);
      return c;
    },
    syncDelayMs: 20,
  });
  adapter.install();
  fake.hooks.call('init');
  fake.setSetting('url', table.server.url);
  fake.setSetting(me.isGM ? 'gmToken' : 'playerToken', token);
  return { fake, dom, adapter, clients };
}

test('a GM plays savage_worlds from Foundry through the real bridge', async (t) => {
  const users = [{ id: 'gm1', name: 'GM', isGM: true }, { id: 'u-ana', name: 'Ana', isGM: false }];
  const gm = boot({ me: users[0], users, token: table.world.gm_token });
  t.after(() => gm.adapter.stop());
  const vega = gm.fake.addActor({ ...SWADE_ACTOR, ownership: { 'u-ana': 3, default: 0 } });
  // Two tokens linked to the demo world's actors by the bridge id flag.
  gm.fake.hooks.call('ready');
  const api = gm.fake.g.game.modules.get('vtt-bridge').api;
  assert.ok(api, 'the macro API is set on the module');
  await until(() => api.state === 'connected', 'connected');
  // Two Extras of the demo world: a hit nobody can soak lands at once.
  const first = api.actor('terrorista1');
  const second = api.actor('terrorista2');
  assert.ok(first && second, 'the demo world has its Extras');
  const t1 = gm.fake.addActor({ id: 'F-one', name: first.name, type: 'npc', flags: { 'vtt-bridge': { id: first.id } } });
  const t2 = gm.fake.addActor({ id: 'F-two', name: second.name, type: 'npc', flags: { 'vtt-bridge': { id: second.id } } });

  // 1. the SWADE actor reached the bridge with its owner, and got buttons
  await until(() => api.actor(vega.id)?.buttons?.length, `the synced actor ${JSON.stringify(gm.fake.notes)} ${JSON.stringify(api.actors().map((a) => [a.id, a.owner]))}`);
  const bridged = api.actor(vega.id);
  assert.equal(bridged.owner, 'u-ana');
  assert.ok(bridged.buttons.some((b) => b.action === 'trait' && b.params.trait === 'pelear'));

  // 2. the sheet shows the buttons; clicking "Notar" asks its params and rolls
  const sheet = hookElement(gm.dom);
  gm.fake.hooks.call('renderActorSheetV2', { document: vega }, sheet, {}, {});
  const block = sheet.mounted[0];
  assert.match(block.html, /Pelear|Fighting/);
  const index = bridged.buttons.findIndex((b) => b.action === 'trait' && b.params.trait === 'notar');
  gm.fake.answers.push({ p_modifier: '1', p_tn: '4', p_free: true });
  block.handlers.get('[data-vtt-bridge-button]')({ vttBridgeActor: vega.id, vttBridgeButton: String(index) });
  const rollMsg = await until(() => gm.fake.created.find((m) => /Notice|Notar/.test(m.content)), 'the roll card as a ChatMessage');
  assert.equal(rollMsg.speaker.actor, vega.id);
  assert.ok(rollMsg.rolls.length >= 1, 'dice as Roll data for Dice So Nice');
  assert.ok(rollMsg.rolls[0].data.terms.some((term) => term.class === 'Die'));
  assert.deepEqual(rollMsg.whisper, []);

  // 3. target two tokens, attack from the token HUD
  gm.fake.target(t1);
  gm.fake.target(t2);
  const hud = hookElement(gm.dom);
  gm.fake.hooks.call('renderTokenHUD', { object: { actor: vega } }, hud, {});
  const hudButton = hud.mounted[0];
  assert.ok(hudButton, 'a HUD attack button');
  gm.fake.answers.push({ which: String(bridged.buttons.findIndex((b) => b.event === 'attack' && b.params.weapon === 'smg')) });
  gm.fake.answers.push({ p_rof: '2' });
  const before = gm.fake.created.length;
  hudButton.handlers.get('[data-vtt-bridge-hud]')({ vttBridgeHud: vega.id });
  const attackMsg = await until(() => gm.fake.created.slice(before).find((m) => /SMG/.test(m.content)), `the attack card ${JSON.stringify(gm.fake.notes)} ${gm.fake.dialogs.length} ${gm.fake.created.slice(before).map((m) => m.content.slice(0, 200))}`);
  const attackFlags = attackMsg.flags['vtt-bridge'];
  assert.ok(attackFlags.card);

  // 4. a follow-up button on the card goes out as card_action (damage, if a bullet hit)
  if (attackFlags.actions.length) {
    const chat = hookElement(gm.dom);
    gm.fake.hooks.call('renderChatMessageHTML', attackMsg, chat, {});
    gm.fake.hooks.call('renderChatMessage', attackMsg, chat, {}); // v13 fires both: wired once
    assert.equal(chat.handlers.size, 1);
    const follow = attackFlags.actions[0];
    chat.handlers.get('button.vtt-follow')({ action: follow.id });
    if (follow.once) {
      await until(() => attackMsg.flags['vtt-bridge'].used?.includes(follow.id), 'card_update disabling the used button');
      assert.match(attackMsg.content, new RegExp(`data-action="${follow.id}"[^>]*disabled`));
    }
  }

  // 5. the GM's "hurt" lands Shaken and wounds on a target, applied to the Foundry actor
  const hurt = await api.act(first.id, 'hurt', { damage: 30, ap: 0 });
  assert.equal(hurt?.ok, true, JSON.stringify(hurt));
  await until(() => t1.statuses.has('shaken') || t1.statuses.has('incapacitated'), `Shaken on the token actor ${JSON.stringify([first.id, t1.toggles, [...t1.statuses], api.actor(first.id).statuses, api.actor(first.id).numbers, hurt.tokens])}`);
  await api.settled();
  const wounds = t1.system.wounds?.value;
  assert.ok(wounds >= 1 || t1.statuses.has('incapacitated'), `wounds written (${wounds})`);
  assert.ok(t1.toggles.length >= 1);
  assert.deepEqual(gm.fake.notes.filter(([level]) => level === 'error'), []);
});

test('a player connects with the player token and never creates cards while a GM is active', async (t) => {
  const users = [{ id: 'gm1', name: 'GM', isGM: true }, { id: 'ana', name: 'Ana', isGM: false }];
  const player = boot({ me: users[1], users, token: table.world.player_token });
  t.after(() => player.adapter.stop());
  const gmClient = createBridgeClient({ url: table.server.url, token: table.world.gm_token, user: 'gm1', io, parser });
  t.after(() => gmClient.close());
  await gmClient.ready();
  const agente = gmClient.welcome.actors.find((a) => a.id === 'agente');
  const up = await gmClient.request('actor_upsert', { actor: { id: 'ana-pc', name: 'Ana PC', owner: 'ana', token: null, sheet: agente.sheet, state: null } });
  assert.equal(up.ok, true, JSON.stringify(up));
  player.fake.hooks.call('ready');
  const api = player.fake.g.game.modules.get('vtt-bridge').api;
  await until(() => api.state === 'connected', 'player connected');
  assert.equal(api.welcome.role, 'player');
  const mine = api.actors().find((a) => a.owner === 'ana');
  assert.ok(mine, 'the demo gives ana an actor');
  const ack = await api.act(mine.id, 'trait', { trait: 'vigor' });
  assert.equal(ack.ok, true, JSON.stringify(ack));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(player.fake.created.length, 0);
  assert.equal(player.fake.settings.get('vtt-bridge.gmToken').scope, 'client');
});

test("the bridge's combat tracker mirrored in Foundry's; Foundry's next turn / next round drive it", async (t) => {
  const users = [{ id: 'gm1', name: 'GM', isGM: true }];
  const gm = boot({ me: users[0], users, token: table.world.gm_token });
  t.after(() => gm.adapter.stop());
  const other = createBridgeClient({ url: table.server.url, token: table.world.gm_token, user: 'gm-other', io, parser });
  t.after(() => other.close());
  /** @type {any[]} */
  const states = [];
  other.on('combat', (push) => states.push(push));
  await other.ready();
  gm.fake.hooks.call('ready');
  const api = gm.fake.g.game.modules.get('vtt-bridge').api;
  await until(() => api.state === 'connected', 'connected');
  gm.fake.addActor({ id: 'F-t1', name: 'T1', type: 'npc', flags: { 'vtt-bridge': { id: 'terrorista1' } } });
  gm.fake.addActor({ id: 'F-t2', name: 'T2', type: 'npc', flags: { 'vtt-bridge': { id: 'terrorista2' } } });
  const fid = { terrorista1: 'F-t1', terrorista2: 'F-t2' };

  const started = await other.request('combat_start', { actors: ['terrorista1', 'terrorista2'], groups: {}, hidden: ['terrorista2'] });
  assert.equal(started.ok, true, JSON.stringify(started));
  const game = gm.fake.g.game;
  /** Foundry's combat matches the bridge's latest state: combatants, hidden, round, who acts. */
  const mirrored = () => {
    const state = states.at(-1);
    const combat = game.combat;
    if (!state || !combat || combat.combatants.items.length !== 2) return false;
    const acting = combat.turns[combat.turn ?? -1]?.actorId;
    const order = state.order.flatMap((slot) => slot.actors.map((a) => fid[a.id]));
    return combat.round === state.round && acting === fid[state.current[0]] &&
      combat.turns.map((c) => c.actorId).slice(0, order.length).join() === order.join() &&
      combat.combatants.items.find((c) => c.actorId === 'F-t2').hidden === true;
  };
  await until(() => states.length && mirrored(), `the combat in Foundry ${JSON.stringify(states.at(-1))}`);
  const firstSeq = states.at(-1).seq;

  // Foundry's "next turn": the bridge moves the turn, the push moves Foundry's.
  gm.fake.hooks.call('combatTurn', game.combat, { turn: 1 }, { direction: 1 });
  await until(() => states.at(-1).seq > firstSeq && mirrored(), 'the next turn mirrored');
  const afterTurn = states.at(-1);
  assert.ok(afterTurn.turn > 0 || afterTurn.round > 1, 'the turn moved on');

  // Foundry's "next round".
  const round = afterTurn.round;
  gm.fake.hooks.call('combatRound', game.combat, { round: round + 1 }, { direction: 1 });
  await until(() => states.at(-1).round === round + 1 && mirrored(), 'the next round mirrored');
  // Going back in Foundry sends nothing.
  const seq = states.at(-1).seq;
  gm.fake.hooks.call('combatTurn', game.combat, { turn: 0 }, { direction: -1 });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(states.at(-1).seq, seq);

  const ended = await other.request('combat_end', {});
  assert.equal(ended.ok, true, JSON.stringify(ended));
  await until(() => game.combat === null, 'the Foundry combat ended');
  assert.deepEqual(gm.fake.notes.filter(([level]) => level === 'error'), []);
});
