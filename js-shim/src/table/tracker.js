// The combat tracker panel: the world's `combat_state` (order with its labels,
// who acts now, round and phase, held / acted / declared markers) and its
// controls. The GM starts and ends combat, moves turns and rounds, adds and
// removes combatants; an actor's owner (or the GM) holds, interrupts, delays
// and declares. Every name and value goes in through textContent (dom.js).

import { askForm } from './ask.js';
import { clear, el } from './dom.js';
import { t } from './i18n.js';

/** A short readable form of a value from the server's data (never markup). */
function show(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? '✔' : '✘';
  if (Array.isArray(value)) return value.map(show).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k} ${show(v)}`)
      .join(', ');
  }
  return String(value);
}

function pairs(data) {
  const entries = Object.entries(data ?? {});
  return entries.length ? entries.map(([k, v]) => `${k.replace(/_/g, ' ')}: ${show(v)}`).join(' · ') : '';
}

/** A free value typed in a key/value row: integers and booleans as such, the rest as text. */
export function parseValue(text) {
  const value = String(text).trim();
  if (/^-?\d{1,15}$/.test(value)) return Number.parseInt(value, 10);
  if (/^-?\d+\.\d+$/.test(value)) return Number.parseFloat(value);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function keyValueRows(count = 2) {
  const box = el('fieldset', { class: 'tracker-kv' }, [el('legend', { text: t('combat.freeParams') })]);
  for (let i = 0; i < count; i += 1) {
    box.append(
      el('div', { class: 'tracker-kv-row' }, [
        el('input', { type: 'text', 'data-kv-key': String(i), placeholder: t('combat.key'), 'aria-label': t('combat.key'), maxlength: '64' }),
        el('input', { type: 'text', 'data-kv-value': String(i), placeholder: t('combat.value'), 'aria-label': t('combat.value'), maxlength: '200' }),
      ]),
    );
  }
  return box;
}

function readKeyValues(form) {
  const out = {};
  for (const key of form.querySelectorAll('[data-kv-key]')) {
    const name = key.value.trim();
    if (!name) continue;
    const value = form.querySelector(`[data-kv-value="${key.dataset.kvKey}"]`)?.value ?? '';
    out[name] = parseValue(value);
  }
  return out;
}

/**
 * @param {HTMLElement} root
 * @param {{send: (event: string, payload: object) => Promise<{ok: boolean}>}} options
 */
export function createTracker(root, { send }) {
  // UI state that survives re-renders (pushes re-render often).
  const ui = {
    pick: new Map(), // actor id -> {on, group, hidden} in the start form
    declaring: null, // the actor whose declaration form is open
    adding: '', // the actor chosen in the add select
    addGroup: '',
    addHidden: false,
  };
  let view = { combat: null, role: 'player', user: null, actors: [] };

  const owns = (actorId) => view.role === 'gm' || view.actors.find((a) => a.id === actorId)?.owner === view.user;

  async function fire(button, event, payload) {
    button.disabled = true;
    const ack = await send(event, payload);
    button.disabled = false;
    return ack;
  }

  function control(kind, text, onClick, extra = {}) {
    return el('button', {
      type: 'button',
      class: `tracker-btn tracker-btn--${kind}`,
      'data-combat': kind,
      text,
      ...extra,
      on: { click: (event) => onClick(event.currentTarget) },
    });
  }

  function startForm() {
    const form = el('form', { class: 'tracker-start', 'aria-label': t('combat.start') });
    const rows = el('div', { class: 'tracker-pick' });
    for (const actor of view.actors) {
      const choice = ui.pick.get(actor.id) ?? { on: false, group: '', hidden: false };
      ui.pick.set(actor.id, choice);
      const box = el('input', { type: 'checkbox', 'data-combat-pick': actor.id, checked: choice.on });
      box.addEventListener('change', () => (choice.on = box.checked));
      const group = el('input', {
        type: 'text',
        class: 'tracker-group',
        'data-combat-group': actor.id,
        placeholder: t('combat.group'),
        'aria-label': `${t('combat.group')} · ${actor.name}`,
        maxlength: '64',
        value: choice.group,
      });
      group.addEventListener('input', () => (choice.group = group.value));
      const hidden = el('input', { type: 'checkbox', 'data-combat-hidden': actor.id, checked: choice.hidden });
      hidden.addEventListener('change', () => (choice.hidden = hidden.checked));
      rows.append(
        el('div', { class: 'tracker-pick-row' }, [
          el('label', { class: 'tracker-pick-name' }, [box, el('span', { text: actor.name })]),
          group,
          el('label', { class: 'tracker-pick-hidden', title: t('combat.hidden') }, [hidden, el('span', { text: t('combat.hiddenShort') })]),
        ]),
      );
    }
    const all = control('all', t('combat.all'), () => {
      const every = view.actors.every((a) => ui.pick.get(a.id)?.on);
      for (const actor of view.actors) ui.pick.get(actor.id).on = !every;
      render();
    });
    form.append(
      el('p', { class: 'tracker-hint', text: t('combat.choose') }),
      rows,
      el('div', { class: 'tracker-controls' }, [
        all,
        el('button', { type: 'submit', class: 'primary tracker-btn', 'data-combat': 'start', text: t('combat.start') }),
      ]),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const chosen = view.actors.filter((a) => ui.pick.get(a.id)?.on).map((a) => a.id);
      const groups = {};
      const hidden = [];
      for (const id of chosen) {
        const choice = ui.pick.get(id);
        if (choice.group.trim()) groups[id] = choice.group.trim();
        if (choice.hidden) hidden.push(id);
      }
      const ack = await fire(form.querySelector('[data-combat="start"]'), 'combat_start', { actors: chosen, groups, hidden });
      if (ack.ok) ui.pick.clear();
    });
    return form;
  }

  /** The system's own declaration fields: the actor's `declare` sheet button, else its initiative plan. */
  function declareButton(actor) {
    const buttons = actor?.buttons ?? [];
    const declare = buttons.find((b) => b.action === 'declare');
    if (declare) return { params: declare.params ?? {}, ask: declare.ask ?? [] };
    const initiative = buttons.find((b) => b.action === 'initiative' && b.ask?.length);
    // (its own `declare` switch belongs to the sheet action, not to the tracker's declaration)
    if (initiative) return { params: {}, ask: initiative.ask.filter((q) => q.name !== 'declare') };
    return { params: {}, ask: [] };
  }

  function declareForm(actorId) {
    const actor = view.actors.find((a) => a.id === actorId);
    const button = declareButton(actor);
    const name = view.combat.combatants.find((c) => c.actor === actorId)?.name ?? actorId;
    const form = askForm({
      title: `${t('combat.declare')} · ${name}`,
      ask: button.ask,
      onCancel: () => {
        ui.declaring = null;
        render();
      },
      onSubmit: async ({ params }) => {
        const all = { ...button.params, ...params, ...readKeyValues(form) };
        const ack = await send('combat_declare', { actor: actorId, params: all });
        if (ack.ok) {
          ui.declaring = null;
          render();
          return;
        }
        // The system names the parameter it wants (`params.plan`): offer a row for it.
        const wanted = /^params\.(.+)$/.exec(ack.error?.field ?? '')?.[1];
        const live = root.querySelector('.tracker-declare');
        if (!wanted || !live || live.querySelector(`[data-param="${CSS.escape(wanted)}"]`)) return;
        const keys = [...live.querySelectorAll('[data-kv-key]')];
        if (keys.some((k) => k.value.trim() === wanted)) return;
        const free = keys.find((k) => !k.value.trim());
        if (!free) return;
        free.value = wanted;
        live.querySelector(`[data-kv-value="${free.dataset.kvKey}"]`)?.focus();
      },
    });
    form.classList.add('tracker-declare');
    form.dataset.actor = actorId;
    form.querySelector('.ask-buttons').before(keyValueRows());
    return form;
  }

  function marks(combatant, combat) {
    const out = [];
    const mark = (kind, text, title = text) => out.push(el('span', { class: `tracker-mark tracker-mark--${kind}`, title, text }));
    if (combatant.hidden && view.role === 'gm') mark('hidden', t('combat.hiddenShort'), t('combat.hidden'));
    if (combatant.group) mark('group', combatant.group, t('combat.group'));
    if (combatant.held) mark('held', t('combat.held'));
    if (combatant.acted) mark('acted', t('combat.acted'));
    if (combat.next_to_declare === combatant.actor) mark('declaring', t('combat.declaring'));
    if (Object.keys(combatant.declared ?? {}).length) mark('declared', `${t('combat.declared')}: ${pairs(combatant.declared)}`);
    return out;
  }

  function actorControls(combatant, slotIndex, combat) {
    const id = combatant.actor;
    if (!owns(id)) return null;
    const current = combat.phase === 'act' && combat.current.includes(id);
    const buttons = [];
    const data = { 'data-actor': id };
    if (current && !combatant.held) buttons.push(control('hold', t('combat.hold'), (b) => fire(b, 'combat_hold', { actor: id }), data));
    if (combatant.held) buttons.push(control('interrupt', t('combat.interrupt'), (b) => fire(b, 'combat_interrupt', { actor: id }), data));
    if (combat.phase === 'act' && slotIndex !== null && slotIndex >= combat.turn && !combatant.acted && !combatant.held) {
      buttons.push(control('delay', t('combat.delay'), (b) => fire(b, 'combat_delay', { actor: id }), data));
    }
    if (combat.phase === 'declare' && combat.next_to_declare === id && ui.declaring !== id) {
      buttons.push(
        control(
          'declare',
          t('combat.declare'),
          () => {
            ui.declaring = id;
            render();
          },
          data,
        ),
      );
    }
    if (view.role === 'gm') buttons.push(control('remove', '✕', (b) => fire(b, 'combat_remove', { actors: [id] }), { ...data, title: t('combat.remove'), 'aria-label': `${t('combat.remove')} ${combatant.name}` }));
    return buttons.length ? el('span', { class: 'tracker-actor-controls' }, buttons) : null;
  }

  function actorRow(combatant, slotIndex, combat, fallbackName) {
    const c = combatant ?? { actor: '?', name: fallbackName, held: false, acted: false, declared: {} };
    const mine = view.actors.find((a) => a.id === c.actor)?.owner === view.user && view.user !== null;
    return el(
      'div',
      {
        class: `tracker-actor${mine ? ' tracker-actor--mine' : ''}${c.held ? ' tracker-actor--held' : ''}${c.acted ? ' tracker-actor--acted' : ''}`,
        'data-actor': c.actor,
      },
      [el('span', { class: 'tracker-name', text: c.name ?? fallbackName }), ...(combatant ? marks(c, combat) : []), combatant ? actorControls(c, slotIndex, combat) : null],
    );
  }

  function activeView(combat) {
    const byId = new Map(combat.combatants.map((c) => [c.actor, c]));
    const head = el('div', { class: 'tracker-head' }, [
      el('span', { class: 'tracker-round', 'data-round': String(combat.round), text: `${t('combat.round')} ${combat.round}` }),
      el('span', { class: `tracker-phase tracker-phase--${combat.phase}`, 'data-phase': combat.phase ?? '', text: t(`combat.phase.${combat.phase}`) }),
    ]);
    const nowNames = combat.current.map((id) => byId.get(id)?.name ?? id);
    const now = el('p', { class: 'tracker-now' }, [
      el('span', { text: combat.phase === 'declare' ? `${t('combat.declaring')}: ` : `${t('combat.now')}: ` }),
      el('strong', {
        class: 'tracker-now-names',
        text: combat.phase === 'declare' ? byId.get(combat.next_to_declare)?.name ?? '—' : nowNames.join(', ') || '—',
      }),
    ]);
    const order = el('ol', { class: 'tracker-order' });
    const placed = new Set();
    combat.order.forEach((slot, index) => {
      const isCurrent = combat.phase === 'act' && index === combat.turn;
      const label = slot.label ?? '';
      const hiddenHere = view.role !== 'gm' && slot.actors.some((a) => byId.get(a.id)?.hidden);
      const data = hiddenHere ? '' : pairs(slot.data);
      order.append(
        el(
          'li',
          {
            class: `tracker-slot${isCurrent ? ' tracker-slot--current' : ''}${index < combat.turn && combat.phase === 'act' ? ' tracker-slot--past' : ''}`,
            'data-turn': String(index),
            'aria-current': isCurrent ? 'step' : undefined,
          },
          [
            el('span', { class: 'tracker-label', text: label || String(index + 1) }),
            el(
              'div',
              { class: 'tracker-slot-actors' },
              slot.actors.map((a) => {
                placed.add(a.id);
                return actorRow(byId.get(a.id), index, combat, a.name);
              }),
            ),
            data ? el('small', { class: 'tracker-data', text: data }) : null,
          ],
        ),
      );
    });
    // Combatants outside the order (held off a shared slot, waiting to join).
    const outside = combat.combatants.filter((c) => !placed.has(c.actor));
    const rest = outside.length
      ? el('div', { class: 'tracker-outside' }, [el('h4', { text: t('combat.outside') }), ...outside.map((c) => actorRow(c, null, combat, c.name))])
      : null;

    const parts = [head, now, order, rest];
    if (ui.declaring && combat.phase === 'declare' && combat.next_to_declare === ui.declaring) parts.push(declareForm(ui.declaring));
    else ui.declaring = null;

    const controls = el('div', { class: 'tracker-controls' });
    const ownsCurrent = combat.phase === 'act' && combat.current.some((id) => owns(id));
    if (view.role === 'gm' || ownsCurrent) {
      controls.append(control('next_turn', view.role === 'gm' ? t('combat.nextTurn') : t('combat.endTurn'), (b) => fire(b, 'combat_next_turn', {})));
    }
    if (view.role === 'gm') {
      controls.append(
        control('next_round', t('combat.nextRound'), (b) => fire(b, 'combat_next_round', {})),
        control('end', t('combat.end'), (b) => fire(b, 'combat_end', {})),
      );
    }
    if (controls.childElementCount) parts.push(controls);

    if (view.role === 'gm') {
      const outsiders = view.actors.filter((a) => !byId.has(a.id));
      if (outsiders.length) {
        if (!outsiders.some((a) => a.id === ui.adding)) ui.adding = outsiders[0].id;
        const select = el(
          'select',
          { 'data-combat-add': '', 'aria-label': t('combat.add') },
          outsiders.map((a) => el('option', { value: a.id, text: a.name })),
        );
        select.value = ui.adding;
        select.addEventListener('change', () => (ui.adding = select.value));
        const group = el('input', { type: 'text', class: 'tracker-group', 'data-combat-add-group': '', placeholder: t('combat.group'), maxlength: '64', value: ui.addGroup });
        group.addEventListener('input', () => (ui.addGroup = group.value));
        const hidden = el('input', { type: 'checkbox', 'data-combat-add-hidden': '', checked: ui.addHidden });
        hidden.addEventListener('change', () => (ui.addHidden = hidden.checked));
        parts.push(
          el('div', { class: 'tracker-add' }, [
            select,
            group,
            el('label', { class: 'tracker-pick-hidden', title: t('combat.hidden') }, [hidden, el('span', { text: t('combat.hiddenShort') })]),
            control('add', t('combat.add'), async (b) => {
              const id = ui.adding;
              const payload = { actors: [id], groups: {}, hidden: ui.addHidden ? [id] : [] };
              if (ui.addGroup.trim()) payload.groups[id] = ui.addGroup.trim();
              const ack = await fire(b, 'combat_add', payload);
              if (ack.ok) {
                ui.addGroup = '';
                ui.addHidden = false;
              }
            }),
          ]),
        );
      }
      if (Object.keys(combat.data ?? {}).length) {
        parts.push(
          el('details', { class: 'tracker-system' }, [
            el('summary', { text: t('combat.systemData') }),
            el('pre', { class: 'tracker-system-data', text: JSON.stringify(combat.data, null, 1) }),
          ]),
        );
      }
    }
    return parts;
  }

  function render() {
    const { combat, role } = view;
    const active = Boolean(combat?.active);
    root.dataset.active = active ? 'true' : 'false';
    root.dataset.round = active ? String(combat.round) : '0';
    root.dataset.phase = active ? combat.phase ?? '' : '';
    root.dataset.seq = combat ? String(combat.seq) : '';
    // Keep a half-typed declaration or start form in place while pushes re-render.
    const focused = root.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? [...focused.attributes].find((a) => a.name.startsWith('data-'))?.name : null;
    const focusValue = focusKey ? focused.getAttribute(focusKey) : null;
    const declareValues = new Map();
    for (const input of root.querySelectorAll('.tracker-declare input, .tracker-declare select')) {
      const key = [...input.attributes].find((a) => a.name.startsWith('data-'));
      if (key) declareValues.set(`${key.name}=${key.value}`, input.type === 'checkbox' ? input.checked : input.value);
    }
    clear(root);
    root.append(el('h2', { text: t('combat.title') }));
    if (active) root.append(...activeView(combat).filter(Boolean));
    else {
      root.append(el('p', { class: 'empty tracker-idle', text: t('combat.none') }));
      if (role === 'gm' && view.actors.length) root.append(startForm());
    }
    for (const input of root.querySelectorAll('.tracker-declare input, .tracker-declare select')) {
      const key = [...input.attributes].find((a) => a.name.startsWith('data-'));
      const saved = key ? declareValues.get(`${key.name}=${key.value}`) : undefined;
      if (saved === undefined) continue;
      if (input.type === 'checkbox') input.checked = saved;
      else input.value = saved;
    }
    if (focusKey) root.querySelector(`[${focusKey}="${CSS.escape(focusValue)}"]`)?.focus?.();
  }

  return {
    /** Shows `combat` (a combat_state, or null) for this page's role and user. */
    update(next) {
      view = { ...view, ...next };
      render();
    },
    get combat() {
      return view.combat;
    },
  };
}
