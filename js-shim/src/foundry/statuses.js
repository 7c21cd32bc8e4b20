// @ts-check
// Canonical bridge statuses -> the running Foundry system's status ids.
//
// Each canonical id lists candidate Foundry ids, first match wins among the
// ids the running system registers (CONFIG.statusEffects). Savage Worlds'
// Shaken is the bridge's `stunned`; SWADE's own "stunned" is another state.

/** @type {Record<string, string[]>} */
export const SWADE_STATUS = {
  stunned: ['shaken'],
  bleeding: ['bleeding-out'],
  incapacitated: ['incapacitated'],
  unconscious: ['incapacitated'],
  dead: ['dead', 'incapacitated'],
  prone: ['prone'],
  grappled: ['entangled', 'bound'],
  impaired: ['distracted'],
  on_hold: ['holding'],
  aiming: ['aiming'],
  dodging: ['defending'],
  parrying: ['defending'],
};

/** Foundry core's default status effects (v12 and v13 share these ids). */
/** @type {Record<string, string[]>} */
export const CORE_STATUS = {
  stunned: ['stun'],
  bleeding: ['bleeding'],
  incapacitated: ['unconscious'],
  unconscious: ['unconscious'],
  dead: ['dead'],
  prone: ['prone'],
  grappled: ['restrain'],
  impaired: ['downgrade'],
  aiming: ['target'],
  wounded: ['bleeding'],
};

/** @param {string} systemId Foundry's game.system.id */
export function statusTable(systemId) {
  return systemId === 'swade' ? SWADE_STATUS : CORE_STATUS;
}

/**
 * The Foundry id a canonical status becomes, or null when the system has none.
 * @param {Record<string, string[]>} table
 * @param {Set<string>} available ids registered in CONFIG.statusEffects
 * @param {string} canonical
 */
export function foundryStatus(table, available, canonical) {
  for (const id of table[canonical] ?? []) if (available.has(id)) return id;
  return null;
}

/**
 * The toggles that make an actor's Foundry statuses match the bridge's list.
 * Only ids our table manages are ever switched off: statuses the GM set by
 * hand in Foundry for other reasons stay.
 * @param {Record<string, string[]>} table
 * @param {Set<string>} available
 * @param {string[]} canonical the actor's full bridge status list
 * @param {Set<string>} current the actor's active Foundry status ids
 * @returns {{id: string, active: boolean}[]}
 */
export function statusToggles(table, available, canonical, current) {
  const wanted = new Set();
  for (const status of canonical) {
    const id = foundryStatus(table, available, status);
    if (id) wanted.add(id);
  }
  const managed = new Set();
  for (const ids of Object.values(table)) for (const id of ids) if (available.has(id)) managed.add(id);
  const out = [];
  for (const id of wanted) if (!current.has(id)) out.push({ id, active: true });
  for (const id of managed) if (current.has(id) && !wanted.has(id)) out.push({ id, active: false });
  return out;
}
