// The built-in table page: join, then tokens, the selected sheet, the chat log
// and (for the GM) the status panel, all fed by the shim core.

import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { createBridgeClient } from '../core/index.js';
import { createChat } from './chat.js';
import { $, el } from './dom.js';
import { renderGmPanel } from './gm.js';
import { locale, setLocale, t } from './i18n.js';
import { fillJoinForm, joinForm, onJoin, readJoin } from './join.js';
import { forgetResume, loadResume, saveResume } from './resume.js';
import { renderSheet } from './sheet.js';
import { flashToken, renderTokens } from './tokens.js';
import { createTracker } from './tracker.js';

const state = {
  client: null,
  welcome: null,
  actors: new Map(),
  selected: null,
  combat: null, // the latest combat_state (welcome.combat, then pushes)
  joined: null, // the join values of the current connection
  resumed: null, // what sessionStorage held when joining
};

let chat = null;
let tracker = null;

function renderTracker() {
  const root = $('#tracker');
  root.hidden = !state.welcome;
  if (!state.welcome) return;
  tracker.update({ combat: state.combat, role: state.welcome.role, user: state.welcome.user, actors: actorList() });
}

function applyWords() {
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
}

function showError(error) {
  const box = $('#errors');
  const item = el('div', { class: 'error' }, [
    el('strong', { text: error.code }),
    ' ',
    el('span', { text: error.message }),
    error.field ? el('small', { text: ` (${error.field})` }) : null,
    el('button', { type: 'button', class: 'error-close', 'aria-label': 'close', text: '×', on: { click: () => item.remove() } }),
  ]);
  box.append(item);
  setTimeout(() => item.remove(), 10000);
}

function showConnection({ state: now, error }) {
  const node = $('#connection');
  node.className = `conn conn--${now}`;
  node.textContent = t(`state.${now}`);
  node.title = error?.message ?? '';
  document.body.dataset.connection = now;
}

function actorList() {
  return [...state.actors.values()];
}

function render() {
  const selected = state.actors.get(state.selected) ?? null;
  const role = state.welcome?.role;
  renderTokens($('#tokens'), actorList(), {
    selected: state.selected,
    user: state.welcome?.user,
    onSelect: (id) => {
      state.selected = id;
      render();
    },
  });
  renderSheet($('#sheet'), { actor: selected, role, actors: actorList(), act });
  renderGmPanel($('#gm-panel'), { actor: selected, role, setStatus });
  renderTracker();
}

/** Re-renders what an actor change touches, keeping an open ask form in place. */
function refreshActor(id) {
  const selected = state.actors.get(state.selected) ?? null;
  renderTokens($('#tokens'), actorList(), {
    selected: state.selected,
    user: state.welcome?.user,
    onSelect: (next) => {
      state.selected = next;
      render();
    },
  });
  flashToken($('#tokens'), id);
  if (id === state.selected) {
    const openForm = $('#sheet .ask');
    if (!openForm) renderSheet($('#sheet'), { actor: selected, role: state.welcome?.role, actors: actorList(), act });
    else {
      const badges = $('#sheet .sheet-head .token-statuses');
      const fresh = document.createElement('div');
      renderSheet(fresh, { actor: selected, role: state.welcome?.role, actors: actorList(), act });
      badges?.replaceWith(fresh.querySelector('.sheet-head .token-statuses'));
    }
    renderGmPanel($('#gm-panel'), { actor: selected, role: state.welcome?.role, setStatus });
  }
  renderTracker();
}

async function send(event, payload) {
  const ack = await state.client.request(event, payload);
  if (!ack.ok) showError(ack.error);
  else remember(); // our own ack completes its seq
  return ack;
}

async function act(button, { params, targets }) {
  const ack = await send(button.event, {
    actor: state.selected,
    action: button.action,
    params: { ...button.params, ...params },
    targets,
  });
  return ack.ok;
}

function setStatus(actor, change) {
  return send('status_set', { actor, ...change });
}

let saveTimer = null;

/** Stores the last complete seq with the cards up to it (debounced; `now` on pagehide). */
function remember(now = false) {
  clearTimeout(saveTimer);
  saveTimer = null;
  const { client, welcome, joined } = state;
  if (!client || !welcome || !joined) return;
  const write = () => {
    if (state.client !== client) return;
    saveResume(joined.token, joined.user, welcome.world.id, { lastSeq: client.lastSeq, cards: chat.snapshot() });
  };
  if (now) write();
  else saveTimer = setTimeout(write, 150);
}

function onWelcome(welcome) {
  const resumed = state.resumed;
  if (resumed && (resumed.world !== welcome.world.id || welcome.seq < resumed.lastSeq)) {
    // The stored position belongs to another world (or one that was reset): start over.
    forgetResume(state.joined.token, state.joined.user);
    join(state.joined);
    return;
  }
  state.resumed = null;
  state.welcome = welcome;
  setLocale(welcome.locale);
  applyWords();
  state.actors = new Map(welcome.actors.map((a) => [a.id, a]));
  state.combat = welcome.combat ?? null;
  if (!state.actors.has(state.selected)) {
    const mine = welcome.actors.find((a) => a.owner === welcome.user);
    state.selected = (mine ?? welcome.actors[0])?.id ?? null;
  }
  $('#world-name').textContent = welcome.world.name;
  $('#world-system').textContent = welcome.world.system_name;
  const role = $('#role');
  role.textContent = welcome.role === 'gm' ? t('gm') : t('player');
  role.className = `badge badge--${welcome.role}`;
  $('#whoami').textContent = state.client.name || welcome.user;
  document.body.dataset.role = welcome.role;
  $('#join').hidden = true;
  $('#table').hidden = false;
  $('#topbar-world').hidden = false;
  render();
  remember();
}

/** A replayed push (seq up to the welcome's) is older than the welcome's actors: only the chat needs it. */
const replayed = (push) => Number.isSafeInteger(push.seq) && push.seq <= (state.welcome?.seq ?? -1);

function onStatus(push) {
  if (replayed(push)) return;
  const actor = state.actors.get(push.actor);
  if (!actor) return;
  state.actors.set(push.actor, { ...actor, statuses: push.statuses, labels: push.labels, numbers: push.numbers });
  refreshActor(push.actor);
}

function onActor(push) {
  if (replayed(push)) return;
  if (push.removed) {
    state.actors.delete(push.removed);
    if (state.selected === push.removed) state.selected = null;
    render();
    return;
  }
  state.actors.set(push.actor.id, push.actor);
  refreshActor(push.actor.id);
}

function onCombat(push) {
  // Replayed states are older than the welcome's; an older push never replaces a newer one.
  if (replayed(push)) return;
  if (state.combat && Number.isSafeInteger(push.seq) && push.seq < state.combat.seq) return;
  state.combat = push;
  renderTracker();
}

function leave() {
  remember(true);
  state.client?.close();
  state.client = null;
  state.welcome = null;
  state.actors.clear();
  state.combat = null;
  renderTracker();
  chat.reset();
  $('#table').hidden = true;
  $('#topbar-world').hidden = true;
  $('#join').hidden = false;
  showConnection({ state: 'closed' });
}

function join(values) {
  state.client?.close();
  state.welcome = null;
  setLocale(values.locale);
  applyWords();
  chat.reset();
  // Resume where this tab left off, or ask for the whole history (last_seq 0).
  const resumed = loadResume(values.token, values.user);
  for (const card of resumed?.cards ?? []) chat.add(card);
  state.joined = values;
  state.resumed = resumed;
  state.resumedFrom = resumed?.lastSeq ?? 0;
  const client = createBridgeClient({
    url: location.origin,
    token: values.token,
    user: values.user,
    name: values.name || values.user,
    locale: values.locale,
    io,
    parser,
    timeoutMs: 8000,
    retries: 3,
    lastSeq: resumed?.lastSeq ?? 0,
  });
  client.name = values.name || values.user;
  state.client = client;
  client.on('connection', (change) => {
    showConnection(change);
    if (change.state === 'refused') {
      showError(change.error);
      leave();
    }
  });
  client.on('welcome', onWelcome);
  client.on('card', (card) => {
    chat.add(card);
    remember();
  });
  client.on('card_update', (push) => {
    chat.update(push);
    remember();
  });
  client.on('status', (push) => {
    onStatus(push);
    remember();
  });
  client.on('actor', (push) => {
    onActor(push);
    remember();
  });
  client.on('combat', (push) => {
    onCombat(push);
    remember();
  });
  client.on('synced', () => remember()); // the backlog is complete: lastSeq moved
  showConnection({ state: client.state });
}

function boot() {
  const values = readJoin();
  setLocale(values.locale);
  applyWords();
  chat = createChat($('#chat'), {
    send: (card, action, params) => send('card_action', { card, action, params }),
  });
  tracker = createTracker($('#tracker'), { send });
  const form = joinForm();
  fillJoinForm(form, values);
  form.elements.namedItem('locale').addEventListener('change', (event) => {
    setLocale(event.target.value);
    applyWords();
  });
  onJoin(form, join);
  $('#leave').addEventListener('click', leave);
  addEventListener('pagehide', () => remember(true));
  showConnection({ state: 'closed' });
  if (values.auto) join(values);
  window.vttTable = { state, locale, chat: () => chat, tracker: () => tracker };
}

boot();
