// @ts-check
// The Foundry adapter's logic: settings, the bridge connection, actor sync,
// sheet / token HUD / macro buttons, chat cards, statuses and numbers, combat.
// Every Foundry call goes through `foundry` (foundry-api.js), every DOM call
// through `dom` (dom.js).

import { attackButtons, askHtml, checkTargets, findButton, readAsk, sheetHtml } from './buttons.js';
import { MODULE_ID, applyCardUpdate, cardMessageData, markUsed, shouldCreateCard } from './chat.js';
import { planCombat, trackerEvent } from './combat.js';
import { escapeHtml } from './escape.js';
import { SWADE_NUMBERS, actorPayload, bridgeIdOf, defaultMapping, fingerprint, numbersUpdate, readMapping } from './mapping.js';
import { statusTable, statusToggles } from './statuses.js';

/**
 * @typedef {import('./foundry-api.js').FoundryApi} FoundryApi
 * @typedef {import('./dom.js').Dom} Dom
 * @typedef {import('./buttons.js').BridgeActor} BridgeActor
 * @typedef {import('./buttons.js').BridgeButton} BridgeButton
 * @typedef {{url: string, token: string, user: string, name: string, locale: 'es' | 'en'}} ConnectOptions
 * @typedef {{state: string, welcome: any, on(topic: string, fn: (value: any) => void): () => void,
 *   request(event: string, payload?: object): Promise<any>, close(): void, socket?: {on(event: string, fn: (value: any) => void): unknown}}} BridgeClient
 */

export const SYNC_DELAY_MS = 300;

/**
 * @param {{foundry: FoundryApi, dom: Dom, connect: (options: ConnectOptions) => BridgeClient, syncDelayMs?: number}} deps
 */
export function createAdapter({ foundry, dom, connect, syncDelayMs = SYNC_DELAY_MS }) {
  /** @type {BridgeClient | null} */
  let client = null;
  /** @type {any} */
  let welcome = null;
  /** @type {Map<string, BridgeActor>} */
  const actors = new Map();
  let connection = 'closed';
  const creating = new Set(); // card ids whose message this client is creating
  /** @type {Map<string, string[]>} */
  const earlyUsed = new Map(); // card_update that arrived before its message existed
  const seenUpdates = new Set();
  /** @type {Map<string, ReturnType<typeof setTimeout>>} */
  const syncTimers = new Map();
  /** @type {Promise<unknown>} */
  let applying = Promise.resolve();

  const t = foundry.t;
  const role = () => welcome?.role ?? (foundry.me().isGM ? 'gm' : 'player');
  const isActiveGm = () => foundry.me().isGM && foundry.activeGmId() === foundry.me().id;
  const connected = () => connection === 'connected' && client !== null;

  // -- settings -----------------------------------------------------------------
  function registerSettings() {
    const reconnect = () => start();
    foundry.registerSetting('url', { name: 'VTTBRIDGE.Settings.url.Name', hint: 'VTTBRIDGE.Settings.url.Hint', scope: 'world', config: true, type: String, default: '', onChange: reconnect });
    // Tokens are client settings: world settings reach every player's browser.
    foundry.registerSetting('gmToken', { name: 'VTTBRIDGE.Settings.gmToken.Name', hint: 'VTTBRIDGE.Settings.gmToken.Hint', scope: 'client', config: true, type: String, default: '', onChange: reconnect });
    foundry.registerSetting('playerToken', { name: 'VTTBRIDGE.Settings.playerToken.Name', hint: 'VTTBRIDGE.Settings.playerToken.Hint', scope: 'client', config: true, type: String, default: '', onChange: reconnect });
    foundry.registerSetting('locale', { name: 'VTTBRIDGE.Settings.locale.Name', hint: 'VTTBRIDGE.Settings.locale.Hint', scope: 'client', config: true, type: String, choices: { '': '—', es: 'Español', en: 'English' }, default: '', onChange: reconnect });
    foundry.registerSetting('showStatus', { name: 'VTTBRIDGE.Settings.showStatus.Name', hint: 'VTTBRIDGE.Settings.showStatus.Hint', scope: 'client', config: true, type: Boolean, default: true, onChange: () => showConnection(connection) });
    foundry.registerSetting('mapping', { name: 'VTTBRIDGE.Settings.mapping.Name', scope: 'world', config: false, type: String, default: '' });
    foundry.registerSetting('syncHashes', { name: 'syncHashes', scope: 'world', config: false, type: Object, default: {} });
    foundry.registerMenu('mappingMenu', { name: 'VTTBRIDGE.Settings.mapping.Name', label: 'VTTBRIDGE.Settings.mapping.Label', hint: 'VTTBRIDGE.Settings.mapping.Hint', icon: 'fas fa-right-left' }, () => {
      void editMapping();
    });
  }

  function mapping() {
    const system = welcome?.world?.system ?? '';
    const raw = foundry.getSetting('mapping');
    if (typeof raw === 'string' && raw.trim()) {
      try {
        return readMapping(raw);
      } catch {
        /* fall back to the default; the dialog refuses bad JSON */
      }
    }
    return defaultMapping(system);
  }

  function worldInfo() {
    return { foundrySystem: foundry.systemId(), bridgeSystem: welcome?.world?.system ?? '', mapping: mapping() };
  }

  // -- connection ---------------------------------------------------------------
  function showConnection(state) {
    const key = state === 'unconfigured' ? 'unconfigured' : state;
    dom.badge(state, t(`VTTBRIDGE.State.${key}`), foundry.getSetting('showStatus') !== false);
  }

  function setConnection(state) {
    connection = state;
    showConnection(state);
  }

  function stop() {
    client?.close();
    client = null;
    welcome = null;
    actors.clear();
  }

  function start() {
    stop();
    const url = String(foundry.getSetting('url') ?? '').trim();
    const me = foundry.me();
    const token = String((me.isGM ? foundry.getSetting('gmToken') : '') || foundry.getSetting('playerToken') || '').trim();
    if (!url || !token) {
      setConnection('unconfigured');
      return null;
    }
    const wanted = String(foundry.getSetting('locale') ?? '') || foundry.lang();
    const locale = wanted === 'en' ? 'en' : 'es';
    const c = connect({ url, token, user: me.id, name: me.name, locale });
    client = c;
    c.on('connection', ({ state, error }) => {
      if (client !== c) return;
      setConnection(state);
      if (state === 'refused') foundry.notify('error', t('VTTBRIDGE.Refused', { message: error?.message ?? error?.code ?? '' }));
    });
    c.on('welcome', (body) => client === c && onWelcome(body));
    c.on('card', (card) => client === c && void onCard(card));
    c.on('status', (push) => client === c && onStatus(push));
    c.on('actor', (push) => client === c && onActor(push));
    c.on('card_update', (push) => client === c && void onCardUpdate(push));
    c.on('combat', (push) => client === c && void onCombatState(push));
    setConnection(c.state ?? 'connecting');
    return c;
  }

  // -- pushes -------------------------------------------------------------------
  function onWelcome(body) {
    welcome = body;
    setConnection('connected'); // the core reports it right after this event

    actors.clear();
    for (const actor of body.actors) actors.set(actor.id, actor);
    if (isActiveGm()) {
      for (const actor of body.actors) queueApply(actor.id, actor.statuses, actor.numbers);
      void syncAll();
    }
    if (body.combat) void onCombatState(body.combat, true);
  }

  function onActor(push) {
    if (push.removed) {
      actors.delete(push.removed);
      return;
    }
    actors.set(push.actor.id, push.actor);
    if (isActiveGm()) queueApply(push.actor.id, push.actor.statuses, push.actor.numbers);
  }

  function onStatus(push) {
    const actor = actors.get(push.actor);
    if (actor) actors.set(push.actor, { ...actor, statuses: push.statuses, numbers: push.numbers });
    if (isActiveGm()) queueApply(push.actor, push.statuses, push.numbers);
  }

  /** The Foundry actor id a bridge actor id stands for. */
  function foundryIdOf(bridgeId) {
    const found = foundry.actors().find((a) => bridgeIdOf(a) === bridgeId);
    return found?.id ?? null;
  }

  function queueApply(bridgeId, statuses, numbers) {
    applying = applying.then(() => applyToActor(bridgeId, statuses, numbers)).catch((error) => console.error('vtt-bridge', error));
    return applying;
  }

  /** Writes a bridge actor's statuses and numbers to its Foundry actor (the active GM does). */
  async function applyToActor(bridgeId, statuses, numbers) {
    const id = foundryIdOf(bridgeId);
    if (!id) return;
    const table = statusTable(foundry.systemId());
    for (const { id: statusId, active } of statusToggles(table, foundry.statusIds(), statuses ?? [], foundry.actorStatuses(id))) {
      await foundry.toggleStatus(id, statusId, active);
    }
    const info = worldInfo();
    const paths = info.foundrySystem === 'swade' && info.bridgeSystem === 'savage_worlds' ? SWADE_NUMBERS : info.mapping.numbers;
    const snap = foundry.actor(id);
    const update = numbersUpdate(paths, numbers ?? {}, snap);
    if (Object.keys(update).length) await foundry.updateActor(id, update);
  }

  async function onCard(card) {
    const who = { me: foundry.me().id, activeGM: foundry.activeGmId(), activeUsers: foundry.activeUserIds() };
    if (!shouldCreateCard(card, who)) return;
    if (creating.has(card.card_id) || foundry.findCardMessage(card.card_id)) return;
    creating.add(card.card_id);
    try {
      const data = cardMessageData(card, { gmIds: foundry.gmIds(), speakerActorId: card.speaker ? foundryIdOf(card.speaker) : null });
      const early = earlyUsed.get(card.card_id);
      if (early) {
        const flags = data.flags[MODULE_ID];
        flags.used = [...new Set([...flags.used, ...early])];
        data.content = markUsed(data.content, flags.used);
        earlyUsed.delete(card.card_id);
      }
      await foundry.createMessage(data);
    } finally {
      creating.delete(card.card_id);
    }
  }

  async function onCardUpdate(push) {
    const key = `${push.seq}:${push.card_id}`;
    if (seenUpdates.has(key)) return;
    seenUpdates.add(key);
    if (!isActiveGm() && foundry.activeGmId()) return;
    const message = foundry.findCardMessage(push.card_id);
    if (!message) {
      earlyUsed.set(push.card_id, [...(earlyUsed.get(push.card_id) ?? []), ...push.used]);
      return;
    }
    const flags = applyCardUpdate(message.flags, push.used);
    if (!flags) return;
    await foundry.updateMessage(message.id, { content: markUsed(message.content, flags.used), [`flags.${MODULE_ID}.used`]: flags.used });
  }

  /** @type {Promise<unknown>} */
  let combatQueue = Promise.resolve();

  /** Mirrors a combat_state (pushes, or the welcome's) in order; replayed ones are older than the welcome's. */
  function onCombatState(state, fromWelcome = false) {
    if (!isActiveGm() || !state) return combatQueue;
    if (!fromWelcome && welcome && Number.isSafeInteger(state.seq) && state.seq <= welcome.seq) return combatQueue;
    combatQueue = combatQueue
      .then(() => foundry.runCombatOps(planCombat(state, foundry.combat(), foundryIdOf)))
      .catch((error) => foundry.notify('warn', String(error instanceof Error ? error.message : error)));
    return combatQueue;
  }

  // -- actor sync (the active GM's client) ----------------------------------------
  async function syncActor(foundryId, { force = false } = {}) {
    if (!client || !connected() || role() !== 'gm') return null;
    const snap = foundry.actor(foundryId);
    if (!snap) return null;
    let payload;
    try {
      payload = actorPayload(worldInfo(), snap);
    } catch (error) {
      foundry.notify('warn', t('VTTBRIDGE.Sync.Failed', { name: snap.name, message: (error instanceof Error ? error.message : String(error)) }));
      return null;
    }
    if (!payload) return null;
    const print = fingerprint(payload);
    const hashes = { ...(foundry.getSetting('syncHashes') ?? {}) };
    if (!force && hashes[payload.id] === print && actors.has(payload.id)) return null;
    const ack = await client.request('actor_upsert', { actor: { ...payload, token: null, state: null } });
    if (ack.ok) {
      hashes[payload.id] = print;
      await foundry.setSetting('syncHashes', hashes);
    } else {
      foundry.notify('warn', t('VTTBRIDGE.Sync.Failed', { name: snap.name, message: `${ack.error.code} ${ack.error.field ?? ''} ${ack.error.message}` }));
    }
    return ack;
  }

  async function syncAll(options = {}) {
    const out = [];
    for (const actor of foundry.actors()) out.push(await syncActor(actor.id, options));
    return out;
  }

  function scheduleSync(foundryId) {
    if (!foundryId || !isActiveGm()) return;
    clearTimeout(syncTimers.get(foundryId));
    syncTimers.set(
      foundryId,
      setTimeout(() => {
        syncTimers.delete(foundryId);
        void syncActor(foundryId);
      }, syncDelayMs),
    );
  }

  async function removeActor(doc) {
    if (!client || !connected() || !isActiveGm()) return;
    const id = foundry.actorIdOf(doc);
    const hashes = { ...(foundry.getSetting('syncHashes') ?? {}) };
    if (!id || !(id in hashes)) return; // only actors this module created
    delete hashes[id];
    await foundry.setSetting('syncHashes', hashes);
    await client.request('actor_remove', { actor: id });
  }

  // -- buttons ----------------------------------------------------------------------
  function fail(error) {
    foundry.notify('error', t('VTTBRIDGE.Error', { code: error.code, message: error.message }));
  }

  /** The bridge actor a Foundry actor id (or bridge id / name) stands for. */
  function bridgeActor(ref) {
    if (actors.has(ref)) return actors.get(ref);
    const snap = foundry.actor(ref) ?? foundry.actors().find((a) => a.name === ref) ?? null;
    return snap ? actors.get(bridgeIdOf(snap)) ?? null : null;
  }

  function targetIds() {
    const out = [];
    for (const target of foundry.targets()) {
      const snap = target.actorId ? foundry.actor(target.actorId) : null;
      const id = snap ? bridgeIdOf(snap) : null;
      if (!id || !actors.has(id)) return { error: target.name };
      out.push(id);
    }
    return { ids: out };
  }

  /**
   * Sends one of an actor's buttons: asks its params (unless given), takes the
   * user's targeted tokens as targets. Resolves the ack (or null if cancelled).
   * @param {string} actorId bridge id
   * @param {BridgeButton} button
   * @param {{params?: Record<string, unknown>, targets?: string[]}} [given]
   */
  async function press(actorId, button, given = {}) {
    if (!client || !connected()) {
      foundry.notify('warn', t('VTTBRIDGE.NotConnected'));
      return null;
    }
    let targets = given.targets;
    if (!targets && button.max_targets > 0) {
      const picked = targetIds();
      if ('error' in picked) {
        foundry.notify('warn', t('VTTBRIDGE.Targets.Unknown', { name: picked.error ?? '' }));
        return null;
      }
      targets = picked.ids;
    }
    const checked = checkTargets(button, targets ?? []);
    if (!checked.ok) {
      foundry.notify('warn', t('VTTBRIDGE.Targets.Count', { min: checked.min, max: checked.max, count: checked.count }));
      return null;
    }
    let params = given.params;
    if (!params && button.ask.length) {
      const values = await foundry.prompt({ title: button.label, content: askHtml(button.ask), ok: t('VTTBRIDGE.Ask.Send') });
      if (!values) return null;
      params = readAsk(button.ask, values);
    }
    const ack = await client.request(button.event, { actor: actorId, action: button.action, params: { ...button.params, ...(params ?? {}) }, targets: checked.targets });
    if (!ack.ok) fail(ack.error);
    return ack;
  }

  async function pressIndex(actorId, index) {
    const actor = actors.get(actorId);
    const button = actor?.buttons[index];
    return button ? press(actorId, button) : null;
  }

  async function hudAttack(actorId) {
    const actor = actors.get(actorId);
    const choices = actor ? attackButtons(actor, role()) : [];
    if (!actor || !choices.length) {
      foundry.notify('warn', t('VTTBRIDGE.Hud.NoAttack'));
      return null;
    }
    let chosen = choices[0];
    if (choices.length > 1) {
      const options = choices.map(({ button, index }) => `<option value="${index}">${escapeHtml(button.label)}</option>`).join('');
      const values = await foundry.prompt({
        title: actor.name,
        content: `<div class="vtt-bridge-ask"><label><span>${escapeHtml(t('VTTBRIDGE.Ask.Action'))}</span><select name="which">${options}</select></label></div>`,
        ok: t('VTTBRIDGE.Ask.Send'),
      });
      if (!values) return null;
      chosen = choices.find(({ index }) => String(index) === String(values.which)) ?? choices[0];
    }
    return press(actor.id, chosen.button);
  }

  async function pressFollow(flags, action) {
    if (!client || !connected()) {
      foundry.notify('warn', t('VTTBRIDGE.NotConnected'));
      return null;
    }
    const follow = flags.actions.find((a) => a.id === action);
    let params = {};
    if (follow?.ask?.length) {
      const values = await foundry.prompt({ title: follow.label, content: askHtml(follow.ask), ok: t('VTTBRIDGE.Ask.Send') });
      if (!values) return null;
      params = readAsk(follow.ask, values);
    }
    const ack = await client.request('card_action', { card: flags.card, action, params });
    if (!ack.ok) fail(ack.error);
    return ack;
  }

  // -- render hooks -------------------------------------------------------------------
  function renderSheet(app, html) {
    const el = foundry.element(html);
    const foundryId = foundry.sheetActorId(app);
    if (!el || !foundryId) return;
    const snap = foundry.actor(foundryId);
    const actor = snap ? actors.get(bridgeIdOf(snap)) : null;
    if (!actor) return;
    const container = dom.find(el, '.window-content') ?? el;
    const block = dom.mount(container, sheetHtml(actor, { role: role(), title: t('VTTBRIDGE.Sheet.Title') }), 'vtt-bridge-sheet');
    if (block) dom.onClick(block, '[data-vtt-bridge-button]', (data) => void pressIndex(data.vttBridgeActor ?? '', Number(data.vttBridgeButton)));
  }

  function renderHud(hud, html) {
    const el = foundry.element(html);
    const foundryId = foundry.hudActorId(hud);
    if (!el || !foundryId) return;
    const snap = foundry.actor(foundryId);
    const actor = snap ? actors.get(bridgeIdOf(snap)) : null;
    if (!actor || !attackButtons(actor, role()).length) return;
    const column = dom.find(el, '.col.left') ?? el;
    const title = escapeHtml(t('VTTBRIDGE.Hud.Attack'));
    const block = dom.mount(column, `<div class="control-icon vtt-bridge-hud" data-vtt-bridge-hud="${escapeHtml(actor.id)}" title="${title}" role="button"><i class="fas fa-crosshairs"></i></div>`, 'vtt-bridge-hud', 'beforeend');
    if (block) dom.onClick(block, '[data-vtt-bridge-hud]', (data) => void hudAttack(data.vttBridgeHud ?? ''));
  }

  function renderMessage(message, html) {
    const flags = foundry.messageCard(message);
    const el = foundry.element(html);
    if (!flags || !el || !dom.claim(el)) return;
    dom.disable(el, 'button.vtt-follow', flags.used ?? []);
    dom.onClick(el, 'button.vtt-follow', (data) => void pressFollow(flags, data.action ?? ''));
  }

  function onTracker(what, options) {
    if (!client || !connected() || role() !== 'gm' || !isActiveGm() || foundry.fromUs(options)) return;
    if (options && typeof options === 'object' && 'direction' in options && Number(options.direction) < 0) return;
    // The bridge owns the order: its combat_state push puts Foundry's tracker right again.
    void client.request(trackerEvent(what), {}).then((ack) => !ack.ok && fail(ack.error));
  }

  // -- mapping dialog ---------------------------------------------------------------
  async function editMapping() {
    if (!foundry.me().isGM) return null;
    const current = JSON.stringify(mapping(), null, 2);
    const values = await foundry.prompt({
      title: t('VTTBRIDGE.Mapping.Title'),
      content: `<p>${escapeHtml(t('VTTBRIDGE.Mapping.Help'))}</p><textarea name="mapping" rows="14" style="font-family: monospace; width: 100%">${escapeHtml(current)}</textarea>`,
      ok: t('VTTBRIDGE.Ask.Send'),
    });
    if (!values) return null;
    try {
      const parsed = readMapping(String(values.mapping ?? ''));
      await foundry.setSetting('mapping', JSON.stringify(parsed));
      await foundry.setSetting('syncHashes', {});
      foundry.notify('info', t('VTTBRIDGE.Mapping.Saved'));
      await syncAll();
      return parsed;
    } catch (error) {
      foundry.notify('error', t('VTTBRIDGE.Mapping.Invalid', { error: (error instanceof Error ? error.message : String(error)) }));
      return null;
    }
  }

  // -- the macro API ------------------------------------------------------------------
  const api = {
    get state() {
      return connection;
    },
    get welcome() {
      return welcome;
    },
    get client() {
      return client;
    },
    /** The bridge actors this connection knows (with their buttons). */
    actors: () => [...actors.values()],
    /** The bridge actor for a bridge id, a Foundry actor id or an actor name. */
    actor: (ref) => bridgeActor(ref),
    connect: () => start(),
    disconnect: () => {
      stop();
      setConnection('closed');
    },
    /** Sends any protocol event: `api.request('roll', {actor, action, params})`. */
    request: (event, payload) => (client ? client.request(event, payload) : Promise.resolve({ ok: false, error: { code: 'client_closed', message: t('VTTBRIDGE.NotConnected') } })),
    /**
     * Presses an actor's button by action id or label: `api.act('Agente Vega', 'trait', {trait: 'notar'})`.
     * Params given skip the dialog; targets default to the user's targeted tokens.
     */
    act: async (ref, which, params, targets) => {
      const actor = bridgeActor(ref);
      const button = actor ? findButton(actor, which, params ?? {}) : null;
      if (!actor || !button) {
        fail({ code: 'unknown_action', message: `${ref}: ${which}` });
        return null;
      }
      return press(actor.id, button, { params, targets });
    },
    /** Attacks the targeted tokens (asks which weapon when there are several). */
    attack: async (ref) => {
      const actor = bridgeActor(ref);
      return actor ? hudAttack(actor.id) : (foundry.notify('warn', t('VTTBRIDGE.Hud.NoAttack')), null);
    },
    syncActors: (options) => syncAll(options),
    editMapping: () => editMapping(),
    /** Resolves once pending status / number writes are done (tests, macros). */
    settled: () => applying,
  };

  // -- wiring ---------------------------------------------------------------------------
  function install() {
    foundry.once('init', () => {
      registerSettings();
    });
    foundry.once('ready', () => {
      foundry.setApi(api);
      start();
    });
    foundry.on('renderActorSheetV2', renderSheet); // v13 ApplicationV2 sheets
    foundry.on('renderActorSheet', renderSheet); // v12 (and v13 legacy) sheets
    foundry.on('renderChatMessageHTML', renderMessage); // v13
    foundry.on('renderChatMessage', renderMessage); // v12 (v13 may fire both: wired once)
    foundry.on('renderTokenHUD', renderHud);
    foundry.on('createActor', (doc) => scheduleSync(foundry.actorIdOf(doc)));
    foundry.on('updateActor', (doc, _changes, options) => !foundry.fromUs(options) && scheduleSync(foundry.actorIdOf(doc)));
    foundry.on('deleteActor', (doc) => void removeActor(doc));
    for (const hook of ['createItem', 'updateItem', 'deleteItem']) {
      foundry.on(hook, (item) => scheduleSync(foundry.itemActorId(item)));
    }
    foundry.on('combatRound', (_combat, _update, options) => onTracker('round', options));
    foundry.on('combatTurn', (_combat, _update, options) => onTracker('turn', options));
  }

  return { install, api, start, stop, syncActor, applyToActor, onCard, onCardUpdate, onCombatState, renderSheet, renderHud, renderMessage };
}
