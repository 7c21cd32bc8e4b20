// @ts-check
// The one module that calls Foundry VTT. Everything else in the adapter is
// pure logic over the plain data this returns. Checked against
// types/foundry.d.ts (the exact surface used, v12 and v13).

import { MODULE_ID } from './chat.js';

/** @typedef {import('./mapping.js').ActorSnap} ActorSnap */

/**
 * @param {FoundryGlobals} g Foundry's globals (`globalThis` in Foundry, a fake in tests)
 */
export function createFoundryApi(g) {
  /** @param {FoundryActor} actor @returns {ActorSnap} */
  function snap(actor) {
    const gms = new Set(g.game.users.filter((u) => u.isGM).map((u) => u.id));
    const owners = Object.entries(actor.ownership ?? {})
      .filter(([user, level]) => user !== 'default' && level >= g.CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER && !gms.has(user))
      .map(([user]) => user)
      .sort();
    const flag = actor.getFlag(MODULE_ID, 'id');
    return {
      id: actor.id,
      name: actor.name,
      type: actor.type,
      system: actor.system,
      items: actor.items.contents.map((item) => ({ id: item.id, type: item.type, name: item.name, system: item.system })),
      owners,
      bridgeId: typeof flag === 'string' && flag ? flag : null,
    };
  }

  /** @param {HTMLFormElement | null | undefined} form */
  function readForm(form) {
    /** @type {Record<string, string | boolean>} */
    const out = {};
    if (!form) return out;
    for (const el of Array.from(form.elements)) {
      const input = /** @type {HTMLInputElement} */ (el);
      if (!input.name) continue;
      out[input.name] = input.type === 'checkbox' ? input.checked : input.value;
    }
    return out;
  }

  /** @param {string} id */
  function actorDoc(id) {
    return g.game.actors.get(id) ?? null;
  }

  return {
    /** @param {string} hook @param {(...args: any[]) => void} fn */
    once: (hook, fn) => {
      g.Hooks.once(hook, fn);
    },
    /** @param {string} hook @param {(...args: any[]) => void} fn */
    on: (hook, fn) => {
      g.Hooks.on(hook, fn);
    },

    /** @param {string} key @param {SettingConfig} config */
    registerSetting: (key, config) => g.game.settings.register(MODULE_ID, key, config),
    /** @param {string} key @param {{name: string, label: string, hint: string, icon: string}} config @param {() => void} open */
    registerMenu: (key, config, open) => {
      class Menu {
        render() {
          open();
          return this;
        }
      }
      g.game.settings.registerMenu(MODULE_ID, key, { ...config, type: Menu, restricted: true });
    },
    /** @param {string} key */
    getSetting: (key) => g.game.settings.get(MODULE_ID, key),
    /** @param {string} key @param {unknown} value */
    setSetting: (key, value) => g.game.settings.set(MODULE_ID, key, value),

    /** @param {string} key @param {Record<string, string | number>} [data] */
    t: (key, data) => (data ? g.game.i18n.format(key, data) : g.game.i18n.localize(key)),
    /** @param {'info' | 'warn' | 'error'} level @param {string} text */
    notify: (level, text) => {
      g.ui.notifications?.[level](text);
    },

    me: () => ({ id: g.game.user.id, name: g.game.user.name, isGM: g.game.user.isGM }),
    lang: () => g.game.i18n.lang,
    activeGmId: () => g.game.users.activeGM?.id ?? null,
    activeUserIds: () => g.game.users.filter((u) => u.active).map((u) => u.id),
    gmIds: () => g.game.users.filter((u) => u.isGM).map((u) => u.id),
    systemId: () => g.game.system.id,
    statusIds: () => new Set(g.CONFIG.statusEffects.map((s) => s.id)),

    actors: () => g.game.actors.contents.map(snap),
    /** @param {string} id */
    actor: (id) => {
      const doc = actorDoc(id);
      return doc ? snap(doc) : null;
    },
    /** @param {unknown} doc an Actor from a hook */
    actorIdOf: (doc) => /** @type {FoundryActor | null} */ (doc)?.id ?? null,
    /** The actor an embedded Item belongs to. @param {unknown} item */
    itemActorId: (item) => /** @type {{actor?: FoundryActor | null}} */ (item)?.actor?.id ?? null,
    /** @param {string} id */
    actorStatuses: (id) => new Set(actorDoc(id)?.statuses ?? []),
    /** @param {string} id @param {Record<string, unknown>} data */
    updateActor: async (id, data) => {
      await actorDoc(id)?.update(data, { [MODULE_ID]: true });
    },
    /** @param {string} id @param {string} statusId @param {boolean} active */
    toggleStatus: async (id, statusId, active) => {
      await actorDoc(id)?.toggleStatusEffect(statusId, { active });
    },
    /** The current user's targeted tokens, as Foundry actor ids and names. */
    targets: () => Array.from(g.game.user.targets).map((token) => ({ actorId: token.actor?.id ?? null, name: token.name })),

    /** @param {object} api */
    setApi: (api) => {
      const mod = g.game.modules.get(MODULE_ID);
      if (mod) mod.api = api;
    },

    /** @param {{content: string, speaker: {alias: string, actor: string | null}, whisper: string[], flags: object, rolls: object[]}} data */
    createMessage: async (data) => {
      const rolls = data.rolls.map((r) => g.Roll.fromData(r));
      const speaker = data.speaker.actor ? { ...g.ChatMessage.getSpeaker({ actor: actorDoc(data.speaker.actor) ?? undefined }), alias: data.speaker.alias } : { alias: data.speaker.alias };
      await g.ChatMessage.create({ content: data.content, speaker, whisper: data.whisper, flags: data.flags, rolls });
    },
    /** @param {string} cardId */
    findCardMessage: (cardId) => {
      const message = g.game.messages.contents.find((m) => m.getFlag(MODULE_ID, 'card') === cardId);
      return message ? { id: message.id, content: message.content, flags: message.flags[MODULE_ID] } : null;
    },
    /** @param {string} id @param {Record<string, unknown>} data */
    updateMessage: async (id, data) => {
      await g.game.messages.get(id)?.update(data);
    },
    /** @param {unknown} message a ChatMessage from a render hook */
    messageCard: (message) => {
      const m = /** @type {FoundryChatMessage} */ (message);
      return m?.getFlag?.(MODULE_ID, 'card') ? m.flags[MODULE_ID] : null;
    },

    /** The HTMLElement of a render hook's html (v13: HTMLElement, v12: jQuery). @param {any} html */
    element: (html) => (html && typeof html.querySelector === 'function' ? html : html?.[0] ?? null),
    /** @param {unknown} app an actor sheet (v12 ActorSheet or v13 ActorSheetV2) */
    sheetActorId: (app) => {
      const a = /** @type {{actor?: FoundryActor, document?: FoundryActor}} */ (app);
      return a?.actor?.id ?? a?.document?.id ?? null;
    },
    /** @param {unknown} hud the TokenHUD */
    hudActorId: (hud) => /** @type {{object?: {actor?: FoundryActor | null}}} */ (hud)?.object?.actor?.id ?? null,

    /**
     * A form dialog; resolves the named values, or null when closed.
     * @param {{title: string, content: string, ok: string}} options
     * @returns {Promise<Record<string, string | boolean> | null>}
     */
    prompt: async ({ title, content, ok }) => {
      const result = await g.foundry.applications.api.DialogV2.prompt({
        window: { title },
        content,
        rejectClose: false,
        ok: { label: ok, callback: (_event, button) => readForm(button.form) },
      });
      return result && typeof result === 'object' ? /** @type {Record<string, string | boolean>} */ (result) : null;
    },

    /** @returns {import('./combat.js').FoundryCombat | null} */
    combat: () => {
      const c = g.game.combat;
      if (!c) return null;
      return {
        id: c.id,
        round: c.round,
        turn: c.turn,
        combatants: c.combatants.contents.map((x) => ({ id: x.id, actorId: x.actorId, initiative: x.initiative, hidden: x.hidden })),
      };
    },
    /** @param {import('./combat.js').CombatOp[]} ops */
    runCombatOps: async (ops) => {
      const opts = { [MODULE_ID]: true };
      for (const op of ops) {
        let combat = g.game.combat;
        if (op.op === 'create') {
          await g.Combat.create({ active: true }, opts);
          continue;
        }
        if (!combat) continue;
        if (op.op === 'end') await combat.delete(opts);
        else if (op.op === 'add') {
          const token = actorDoc(op.actorId)?.getActiveTokens(false, true)[0];
          await combat.createEmbeddedDocuments('Combatant', [{ actorId: op.actorId, tokenId: token?.id, sceneId: token?.parent?.id, initiative: op.initiative, hidden: op.hidden }], opts);
        } else if (op.op === 'remove') await combat.deleteEmbeddedDocuments('Combatant', [op.id], opts);
        else if (op.op === 'set') await combat.updateEmbeddedDocuments('Combatant', [{ _id: op.id, initiative: op.initiative, hidden: op.hidden }], opts);
        else if (op.op === 'turn') {
          combat = g.game.combat;
          const index = op.actorId ? combat?.turns.findIndex((c) => c.actorId === op.actorId) ?? -1 : -1;
          await combat?.update({ round: op.round, turn: index >= 0 ? index : null }, opts);
        }
      }
    },
    /** Whether a document update/hook options came from us. @param {unknown} options */
    fromUs: (options) => Boolean(/** @type {Record<string, unknown> | null} */ (options)?.[MODULE_ID]),
  };
}

/** @typedef {ReturnType<typeof createFoundryApi>} FoundryApi */
