// A small fake of exactly the Foundry surface in types/foundry.d.ts (plus a
// fake of dom.js), to drive the adapter in node. Not a test file by itself.

import { readFileSync } from 'node:fs';

const EN = JSON.parse(readFileSync(new URL('../../src/foundry/lang/en.json', import.meta.url), 'utf8'));

function collection(items) {
  return {
    items,
    get(id) {
      return items.find((x) => x.id === id);
    },
    get contents() {
      return [...items];
    },
    filter: (fn) => items.filter(fn),
    find: (fn) => items.find(fn),
  };
}

function setPath(obj, path, value) {
  const keys = path.split('.');
  let here = obj;
  for (const key of keys.slice(0, -1)) here = here[key] ??= {};
  here[keys.at(-1)] = value;
}

function applyUpdate(doc, data) {
  for (const [key, value] of Object.entries(data)) setPath(doc, key, value);
}

export function fakeActor(hooks, { id, name, type = 'character', system = {}, items = [], ownership = {}, flags = {}, statuses = [] }) {
  const actor = {
    id,
    name,
    type,
    system,
    items: collection(items.map((item, i) => ({ id: `${id}-i${i}`, ...item, get actor() { return actor; } }))),
    ownership,
    flags,
    statuses: new Set(statuses),
    updates: [],
    toggles: [],
    getFlag: (scope, key) => flags[scope]?.[key],
    async update(data, options = {}) {
      actor.updates.push(data);
      applyUpdate(actor, data);
      hooks.call('updateActor', actor, data, options, 'x');
      return actor;
    },
    async toggleStatusEffect(statusId, { active } = {}) {
      actor.toggles.push([statusId, active]);
      if (active) actor.statuses.add(statusId);
      else actor.statuses.delete(statusId);
      return true;
    },
    getActiveTokens: () => [],
  };
  return actor;
}

export function fakeFoundry({ system = 'swade', me = { id: 'gm1', name: 'GM', isGM: true }, users, statusEffects } = {}) {
  const handlers = new Map();
  const hooks = {
    on(hook, fn) {
      if (!handlers.has(hook)) handlers.set(hook, []);
      handlers.get(hook).push(fn);
      return handlers.get(hook).length;
    },
    once(hook, fn) {
      return hooks.on(hook, fn);
    },
    call(hook, ...args) {
      for (const fn of handlers.get(hook) ?? []) fn(...args);
    },
    handlers,
  };
  const allUsers = (users ?? [{ ...me, active: true }]).map((u) => ({ active: true, targets: new Set(), ...u }));
  const user = allUsers.find((u) => u.id === me.id);
  const usersCol = collection(allUsers);
  Object.defineProperty(usersCol, 'activeGM', {
    get: () => allUsers.filter((u) => u.isGM && u.active).sort((a, b) => (a.id < b.id ? -1 : 1))[0] ?? null,
  });
  const settings = new Map();
  const values = new Map();
  const menus = new Map();
  const messages = collection([]);
  const notes = [];
  const dialogs = [];
  const answers = [];
  const created = [];
  let nextId = 1;
  const game = {
    user,
    users: usersCol,
    actors: collection([]),
    messages,
    modules: collection([{ id: 'vtt-bridge' }]),
    system: { id: system },
    combat: null,
    i18n: {
      lang: 'en',
      localize: (key) => EN[key] ?? key,
      format: (key, data) => (EN[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => String(data[k] ?? '')),
    },
    settings: {
      register(ns, key, config) {
        settings.set(`${ns}.${key}`, config);
      },
      registerMenu(ns, key, config) {
        menus.set(`${ns}.${key}`, config);
      },
      get(ns, key) {
        const k = `${ns}.${key}`;
        if (!settings.has(k)) throw new Error(`setting ${k} is not registered`);
        return values.has(k) ? values.get(k) : settings.get(k).default;
      },
      async set(ns, key, value) {
        const k = `${ns}.${key}`;
        if (!settings.has(k)) throw new Error(`setting ${k} is not registered`);
        values.set(k, value);
        settings.get(k).onChange?.(value);
        return value;
      },
    },
  };
  const g = {
    game,
    Hooks: hooks,
    CONST: { DOCUMENT_OWNERSHIP_LEVELS: { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } },
    CONFIG: {
      statusEffects: (statusEffects ?? (system === 'swade'
        ? ['shaken', 'incapacitated', 'dead', 'bleeding-out', 'prone', 'holding', 'entangled', 'stunned', 'defending', 'distracted']
        : ['dead', 'unconscious', 'stun', 'prone', 'restrain', 'bleeding', 'downgrade', 'target'])).map((id) => ({ id })),
    },
    ChatMessage: {
      async create(data) {
        const message = {
          id: `m${nextId++}`,
          ...data,
          getFlag: (scope, key) => message.flags[scope]?.[key],
          async update(change) {
            applyUpdate(message, change);
            message.updates = [...(message.updates ?? []), change];
            return message;
          },
        };
        messages.items.push(message);
        created.push(message);
        hooks.call('createChatMessage', message);
        return message;
      },
      getSpeaker: ({ actor }) => ({ actor: actor?.id ?? null, alias: actor?.name }),
    },
    Roll: { fromData: (data) => ({ total: data.total, data }) },
    Combat: {
      async create() {
        const combatants = collection([]);
        const combat = {
          id: 'c1',
          round: 0,
          turn: null,
          combatants,
          get turns() {
            return [...combatants.items].sort((a, b) => (b.initiative ?? -1e9) - (a.initiative ?? -1e9));
          },
          async update(data) {
            Object.assign(combat, data);
          },
          async delete() {
            game.combat = null;
          },
          async createEmbeddedDocuments(_n, list) {
            for (const d of list) combatants.items.push({ id: `cb${nextId++}`, actorId: d.actorId, initiative: d.initiative, hidden: d.hidden });
            return [];
          },
          async updateEmbeddedDocuments(_n, list) {
            for (const d of list) Object.assign(combatants.get(d._id), { initiative: d.initiative, hidden: d.hidden });
            return [];
          },
          async deleteEmbeddedDocuments(_n, ids) {
            combatants.items.splice(0, combatants.items.length, ...combatants.items.filter((c) => !ids.includes(c.id)));
            return [];
          },
        };
        game.combat = combat;
        return combat;
      },
    },
    ui: {
      notifications: {
        info: (text) => notes.push(['info', text]),
        warn: (text) => notes.push(['warn', text]),
        error: (text) => notes.push(['error', text]),
      },
    },
    foundry: {
      applications: {
        api: {
          DialogV2: {
            async prompt(options) {
              dialogs.push(options);
              const answer = answers.shift();
              if (answer === undefined || answer === null) return null;
              const form = { elements: Object.entries(answer).map(([name, v]) => (typeof v === 'boolean' ? { name, type: 'checkbox', checked: v } : { name, type: 'text', value: v })) };
              return options.ok.callback({}, { form }, {});
            },
          },
        },
      },
    },
  };
  return {
    g,
    hooks,
    settings,
    values,
    menus,
    notes,
    dialogs,
    answers,
    created,
    addActor(data) {
      const actor = fakeActor(hooks, data);
      game.actors.items.push(actor);
      return actor;
    },
    target(actor) {
      user.targets.add({ name: actor.name, actor });
    },
    setSetting(key, value) {
      values.set(`vtt-bridge.${key}`, value);
    },
  };
}

/** A fake of dom.js: mounted blocks and click handlers you can fire. */
export function fakeDom() {
  const badges = [];
  const mounts = [];
  return {
    badges,
    mounts,
    element: () => ({ handlers: new Map(), disabled: [], wired: false, mounted: [] }),
    mount(container, html, marker) {
      const node = { html, marker, handlers: new Map(), container };
      container.mounted.push(node);
      mounts.push(node);
      return node;
    },
    find: () => null,
    onClick(root, selector, fn) {
      root.handlers.set(selector, fn);
    },
    disable(root, _selector, actions) {
      root.disabled.push(...actions);
    },
    claim(el) {
      if (el.wired) return false;
      el.wired = true;
      return true;
    },
    badge(state, text, show) {
      badges.push({ state, text, show });
    },
  };
}

/** Element handed to render hooks: v13 style (has querySelector). */
export function hookElement(dom) {
  const el = dom.element();
  el.querySelector = () => null;
  return el;
}

export async function until(check, what, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A SWADE game system character, as foundry-api.js snapshots it. */
export const SWADE_ACTOR = {
  id: 'Abc123',
  name: 'Vega',
  type: 'character',
  system: {
    attributes: { agility: { die: { sides: 8 } }, smarts: { die: { sides: 6 } }, spirit: { die: { sides: 6 } }, strength: { die: { sides: 6 } }, vigor: { die: { sides: 10 } } },
    stats: { speed: { value: 6 }, toughness: { armor: 2 } },
    bennies: { value: 3, max: 3 },
    wounds: { value: 0, max: 3 },
  },
  items: [
    { id: 'i1', type: 'skill', name: 'Fighting', system: { swid: 'fighting', die: { sides: 8, modifier: 1 } } },
    { id: 'i2', type: 'skill', name: 'Notice', system: { swid: 'notice', die: { sides: 6, modifier: 0 } } },
    { id: 'i3', type: 'skill', name: 'Conducir vehículos', system: { swid: 'none', die: { sides: 4 } } },
    { id: 'i4', type: 'weapon', name: 'Colt .45', system: { damage: '2d6+1', rof: 1, ap: 1, shots: 7, range: '12/24/48' } },
    { id: 'i8', type: 'weapon', name: 'SMG', system: { damage: '2d6', rof: 3, ap: 0, shots: 30, range: '12/24/48' } },
    { id: 'i5', type: 'weapon', name: 'Knife', system: { damage: '@str+d4' } },
    { id: 'i6', type: 'weapon', name: 'Weird', system: { damage: '@str+1d6x' } },
    { id: 'i7', type: 'edge', name: 'Quick', system: { swid: 'quick' } },
  ],
  owners: ['u-ana'],
  bridgeId: null,
};
