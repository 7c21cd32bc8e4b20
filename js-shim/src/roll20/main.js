// vtt-bridge for Roll20: the userscript. Connects to the bridge with the shim
// core; posts pushed cards into Roll20's chat (speaking as the card's
// character, whispered to the GM when GM-only); turns clicks on the cards'
// API buttons into `card_action`; runs `!vtt ...` chat commands as requests;
// forwards token changes to the Mod script as `!vtt-bridge ...` commands.

import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { createBridgeClient, newRequestId } from '../core/index.js';
import { createChatBox, SELECTORS } from './chat-dom.js';
import { convertParam, findActor, isVttCommand, messages, parseCommand, tokenize } from './commands.js';
import { bridgeCommand, formatCard, parseCardButton, statusCommand, turnOrderCommand } from './format.js';
import { openSettings, readConfig } from './settings.js';

const TEXT = {
  es: {
    connected: (w, r) => `conectado a «${w}» (${r === 'gm' ? 'director de juego' : 'jugador'}). Escribe !vtt help.`,
    refused: (m) => `conexión rechazada: ${m}`,
    noMod: 'ningún script Mod respondió: los estados de las fichas solo aparecen en las tarjetas (y los !vtt de macros no llegan; escríbelos en el chat).',
    mod: 'script Mod activo: los estados y barras se aplican a las fichas.',
    used: 'ese botón ya se usó.',
    notConnected: 'no hay conexión con el puente.',
    turnUsage: 'Uso: !vtt turn <actor> <valor> · !vtt turn clear',
    unknown: 'Desconocido',
    round: 'Asalto',
    ask: (label, name, choices) => `${label}: ${name}${choices ? ` (${choices})` : ''}`,
  },
  en: {
    connected: (w, r) => `connected to "${w}" (${r === 'gm' ? 'game master' : 'player'}). Type !vtt help.`,
    refused: (m) => `connection refused: ${m}`,
    noMod: 'no Mod script answered: token statuses appear in the cards only (and macros\' !vtt lines do not arrive; type them in the chat).',
    mod: 'Mod script active: statuses and bars are applied to the tokens.',
    used: 'that button was already used.',
    notConnected: 'not connected to the bridge.',
    turnUsage: 'Usage: !vtt turn <actor> <value> · !vtt turn clear',
    unknown: 'Unknown',
    round: 'Round',
    ask: (label, name, choices) => `${label}: ${name}${choices ? ` (${choices})` : ''}`,
  },
};

export function startRoll20Bridge(config, { doc = document, win = window, selectors = SELECTORS } = {}) {
  const chat = createChatBox(doc, selectors);
  const player = chat.player();
  const user = config.user || player?.id || 'roll20';
  const state = {
    role: null,
    locale: config.locale || 'es',
    actors: new Map(),
    cards: new Map(),
    used: new Set(), // "card|action"
    mod: 'unknown', // unknown | yes | no
    pending: new Map(), // actor -> status command waiting for the Mod's answer
    nonce: newRequestId().slice(0, 16),
    secret: newRequestId(),
    relays: new Set(),
    startedAt: Date.now(),
    greeted: false,
    posted: [],
    combat: null, // the latest combat_state
    combatSent: null, // the turn-order command last sent to the Mod
  };
  const text = () => TEXT[state.locale] ?? TEXT.es;
  const body = doc.body;

  const client = createBridgeClient({
    url: config.url,
    token: config.token,
    user,
    name: config.name || player?.name || user,
    locale: config.locale,
    io,
    parser,
    timeoutMs: config.timeoutMs ?? 5000,
  });

  function postMode() {
    if (config.post && config.post !== 'auto') return config.post;
    return state.role === 'gm' ? 'all' : 'none';
  }

  function postCard(card) {
    if (state.posted.includes(card.card_id)) return;
    state.posted.push(card.card_id);
    if (state.posted.length > 500) state.posted.shift();
    const speakAs = chat.canSpeakAs(card.speaker_name) ? card.speaker_name : null;
    chat.post(formatCard(card, { withSpeaker: !speakAs }), { speakAs });
  }

  function sendToMod(command) {
    chat.post(command);
  }

  function forwardStatus(status) {
    if (!(state.role === 'gm' || config.forwardTokens)) return;
    if (state.mod === 'yes') sendToMod(statusCommand(status));
    else if (state.mod === 'unknown') state.pending.set(status.actor ?? status.id, status);
  }

  function markUsed(cardId, action) {
    state.used.add(`${cardId}|${action}`);
    const list = chat.messages();
    if (!list) return;
    for (const link of list.querySelectorAll('a[href]')) decorate(link);
  }

  /** An undo released a used button: it works again. */
  function markReleased(cardId, action) {
    state.used.delete(`${cardId}|${action}`);
    const list = chat.messages();
    if (!list) return;
    for (const link of list.querySelectorAll('a[href]')) decorate(link);
  }

  function decorate(link) {
    const press = parseCardButton(link.getAttribute('href'));
    if (!press) return;
    if (state.used.has(`${press.card}|${press.action}`)) {
      link.classList.add('vtt-used');
      link.setAttribute('aria-disabled', 'true');
      link.style.opacity = '0.5';
      link.style.pointerEvents = 'none';
    } else if (link.classList.contains('vtt-used')) {
      link.classList.remove('vtt-used');
      link.removeAttribute('aria-disabled');
      link.style.opacity = '';
      link.style.pointerEvents = '';
    }
  }

  function showError(ack) {
    const error = ack.error ?? {};
    chat.notice(`${error.code ?? 'error'}: ${error.message ?? ''}`, 'error');
  }

  /** `!vtt turn <actor> <value>` / `!vtt turn clear`: the Roll20 turn order, through the Mod script. */
  function turnCommand(words) {
    if (state.mod !== 'yes') {
      chat.notice(text().noMod, 'warning');
      return { ok: false };
    }
    if (words[0] === 'clear') {
      sendToMod(bridgeCommand('turn clear'));
      return { ok: true };
    }
    const actor = findActor([...state.actors.values()], words[0] ?? '');
    if (!actor || !/^-?\d+(\.\d+)?$/.test(words[1] ?? '')) {
      chat.notice(text().turnUsage, 'error');
      return { ok: false };
    }
    sendToMod(bridgeCommand('turn add', { token: actor.token, name: actor.name, pr: words[1] }));
    return { ok: true };
  }

  /** The GM's userscript fills Roll20's turn order from the bridge's combat tracker. */
  function syncTurnOrder() {
    if (state.role !== 'gm' || state.mod !== 'yes' || !state.combat) return;
    const command = turnOrderCommand(state.combat, state.actors, { unknown: text().unknown, round: text().round });
    if (command === state.combatSent) return;
    state.combatSent = command;
    sendToMod(command);
  }

  function onCombat(combat) {
    if (state.combat && Number.isSafeInteger(combat.seq) && combat.seq < state.combat.seq) return;
    // A start after nothing, or a replayed end, needs no turn-order change.
    if (!combat.active && !state.combat?.active && state.combatSent === null) {
      state.combat = combat;
      return;
    }
    state.combat = combat;
    syncTurnOrder();
  }

  /** A one-actor initiative card with a "Total N" line goes into the turn order (no tracker running). */
  function initiativeToTurn(card) {
    if (state.combat?.active) return;
    if (card.kind !== 'initiative' || !card.speaker || state.mod !== 'yes' || state.role !== 'gm') return;
    const lines = (card.sections ?? []).flatMap((s) => s.lines ?? []);
    const total = lines.map((l) => /^Total (-?\d+)$/.exec(l.trim())).find(Boolean);
    const actor = state.actors.get(card.speaker);
    if (total && actor) sendToMod(bridgeCommand('turn add', { token: actor.token, name: actor.name, pr: total[1] }));
  }

  async function runCommand(line) {
    if (client.state !== 'connected' && !client.welcome) {
      chat.notice(text().notConnected, 'error');
      return { ok: false };
    }
    const words = tokenize(line.trim()).slice(1);
    if (words[0] === 'turn' && state.role === 'gm') return turnCommand(words.slice(1));
    const parsed = parseCommand(line, [...state.actors.values()], state.locale);
    if (parsed.help) {
      chat.notice(parsed.help, 'help');
      return parsed;
    }
    if (!parsed.ok) {
      chat.notice(parsed.message, 'error');
      return parsed;
    }
    const ack = await client.request(parsed.event, parsed.payload);
    if (!ack.ok) showError(ack);
    else if (postMode() === 'own') ack.cards.forEach(postCard);
    return ack;
  }

  async function pressCardButton(cardId, action) {
    if (state.used.has(`${cardId}|${action}`)) {
      chat.notice(text().used, 'error');
      return { ok: false };
    }
    const card = state.cards.get(cardId);
    const follow = card?.actions?.find((a) => a.id === action);
    const params = {};
    for (const ask of follow?.ask ?? []) {
      const choices = ask.kind === 'choice' ? ask.choices.join(', ') : ask.kind === 'bool' ? 'sí/no' : '';
      const answer = win.prompt(text().ask(follow.label, ask.label || ask.name, choices), ask.default ?? '');
      if (answer === null) return { ok: false, cancelled: true };
      if (answer === '' && !ask.required) continue;
      const converted = convertParam(ask, answer, messages(state.locale));
      if (converted.error) {
        chat.notice(converted.error, 'error');
        return { ok: false };
      }
      params[ask.name] = converted.value;
    }
    const ack = await client.request('card_action', { card: cardId, action, params });
    if (!ack.ok) showError(ack);
    else {
      if (follow?.once) markUsed(cardId, action);
      if (postMode() === 'own') ack.cards.forEach(postCard);
    }
    return ack;
  }

  // -- the page --------------------------------------------------------------
  function onKeydown(event) {
    const input = chat.input();
    if (event.target !== input || event.key !== 'Enter' || event.shiftKey || chat.posting) return;
    if (!isVttCommand(input.value)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const line = input.value;
    input.value = '';
    runCommand(line);
  }

  function onClick(event) {
    if (chat.posting) return;
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const send = chat.sendButton();
    if (send && (target === send || send.contains(target))) {
      const input = chat.input();
      if (input && isVttCommand(input.value)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        const line = input.value;
        input.value = '';
        runCommand(line);
      }
      return;
    }
    const link = target.closest('a[href]');
    const press = link && parseCardButton(link.getAttribute('href'));
    if (!press) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    pressCardButton(press.card, press.action);
  }

  function onMessage(node) {
    if (!(node instanceof Element)) return;
    for (const link of node.querySelectorAll('a[href]')) decorate(link);
    const content = node.textContent ?? '';
    if (content.includes(`vtt-bridge pong ${state.nonce}`)) {
      node.style.display = 'none';
      if (state.mod !== 'yes') {
        state.mod = 'yes';
        body.dataset.vttMod = 'yes';
        chat.notice(text().mod);
        for (const status of state.pending.values()) sendToMod(statusCommand(status));
        state.pending.clear();
        syncTurnOrder();
      }
      return;
    }
    const relay = /vtt-bridge relay (\S+) (\d+) (\S+)/.exec(content);
    if (relay) {
      node.style.display = 'none';
      const [, secret, at, payload] = relay;
      const key = `${at} ${payload}`;
      if (secret !== state.secret || state.relays.has(key) || Number(at) < state.startedAt - 60000) return;
      state.relays.add(key);
      let line;
      try {
        line = decodeURIComponent(payload);
      } catch {
        return;
      }
      runCommand(`!vtt ${line}`);
    }
  }

  doc.addEventListener('keydown', onKeydown, true);
  doc.addEventListener('click', onClick, true);
  const observer = new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(onMessage);
  });
  observer.observe(chat.messages(), { childList: true, subtree: true });

  // -- the bridge ------------------------------------------------------------
  client.on('connection', ({ state: connection, error }) => {
    body.dataset.vttConnection = connection;
    if (connection === 'refused') chat.notice(text().refused(error?.message ?? error?.code), 'error');
  });

  client.on('welcome', (welcome) => {
    state.role = welcome.role;
    state.locale = welcome.locale || state.locale;
    state.actors = new Map(welcome.actors.map((a) => [a.id, a]));
    body.dataset.vttRole = welcome.role;
    if (welcome.combat) onCombat(welcome.combat);
    if (state.greeted) return;
    state.greeted = true;
    chat.notice(text().connected(welcome.world?.name ?? '', welcome.role));
    // The statuses the tokens should show now; sent once the Mod answers.
    if (state.role === 'gm' || config.forwardTokens) {
      for (const actor of welcome.actors) {
        if (actor.statuses?.length || Object.keys(actor.numbers ?? {}).length) state.pending.set(actor.id, actor);
      }
    }
    sendToMod(bridgeCommand('ping', { nonce: state.nonce, secret: state.secret }));
    win.setTimeout(() => {
      if (state.mod !== 'unknown') return;
      state.mod = 'no';
      body.dataset.vttMod = 'no';
      state.pending.clear();
      chat.notice(text().noMod, 'warning');
    }, config.modTimeoutMs ?? 5000);
  });

  client.on('actor', (update) => {
    if (update.removed) state.actors.delete(update.removed);
    if (update.actor) state.actors.set(update.actor.id, update.actor);
  });

  client.on('card', (card) => {
    state.cards.set(card.card_id, card);
    if (state.cards.size > 500) state.cards.delete(state.cards.keys().next().value);
    for (const action of card.actions ?? []) if (action.used) state.used.add(`${card.card_id}|${action.id}`);
    if (postMode() === 'all') postCard(card);
    initiativeToTurn(card);
  });

  client.on('status', (status) => {
    const actor = state.actors.get(status.actor);
    if (actor) state.actors.set(actor.id, { ...actor, statuses: status.statuses, numbers: { ...actor.numbers, ...status.numbers } });
    forwardStatus(status);
  });

  client.on('card_update', (update) => {
    for (const action of update.used ?? []) markUsed(update.card_id, action);
    for (const action of update.released ?? []) markReleased(update.card_id, action);
  });

  client.on('combat', (combat) => onCombat(combat));

  return {
    client,
    state,
    chat,
    runCommand,
    pressCardButton,
    stop() {
      observer.disconnect();
      doc.removeEventListener('keydown', onKeydown, true);
      doc.removeEventListener('click', onClick, true);
      client.close();
    },
  };
}

/** Waits for Roll20's chat to exist, then starts with the saved settings (or asks for them). */
export function boot(win = window) {
  const doc = win.document;
  const chat = createChatBox(doc);
  const tick = () => {
    if (!chat.ready()) {
      win.setTimeout(tick, 500);
      return;
    }
    const start = (config) => {
      win.vttBridgeRoll20?.stop?.();
      win.vttBridgeRoll20 = startRoll20Bridge(config, { doc, win });
    };
    const config = readConfig(win);
    openSettings(doc, { config, onSave: start, open: !config });
    if (config) start(config);
  };
  tick();
}

if (typeof window !== 'undefined' && !window.vttBridgeRoll20Booted) {
  window.vttBridgeRoll20Booted = true;
  boot(window);
}
