// @ts-check
// Mirroring the bridge's combat tracker (`combat_state`, protocol/v1/README.md)
// into Foundry's combat tracker, and Foundry's next-turn / next-round buttons
// back to the bridge.
//
// The bridge's `order` is a list of slots (several actors act at once in a
// slot: ties, groups); `current` lists who acts now. Foundry sorts combatants
// by initiative, so each slot's actors get the same value, descending with
// the slot's place in the order (the first slot the highest). Combatants
// outside the order (held off a shared slot) get no initiative.

/**
 * @typedef {{id: string, name: string}} SlotActor
 * @typedef {{actors: SlotActor[], label: string | null, data: Record<string, unknown>}} Slot
 * @typedef {{actor: string, name: string, group: string | null, hidden: boolean, held: boolean,
 *   acted: boolean, declared: Record<string, unknown>}} BridgeCombatant
 * @typedef {{seq: number, world: string, active: boolean, round: number, phase: 'declare' | 'act' | null,
 *   turn: number | null, current: string[], next_to_declare: string | null, order: Slot[],
 *   combatants: BridgeCombatant[], data?: Record<string, unknown>}} CombatState
 * @typedef {{id: string, actorId: string | null, initiative: number | null, hidden: boolean}} FoundryCombatant
 * @typedef {{id: string, round: number, turn: number | null, combatants: FoundryCombatant[]}} FoundryCombat
 * @typedef {{ op: 'create' } | { op: 'end' } |
 *   { op: 'add', actorId: string, initiative: number | null, hidden: boolean } |
 *   { op: 'remove', id: string } |
 *   { op: 'set', id: string, initiative: number | null, hidden: boolean } |
 *   { op: 'turn', round: number, turn: number | null, actorId: string | null }} CombatOp
 */

/**
 * Each combatant's Foundry initiative from the bridge order.
 * @param {CombatState} state
 * @returns {Map<string, number | null>} bridge actor id -> initiative
 */
export function initiatives(state) {
  /** @type {Map<string, number | null>} */
  const out = new Map();
  const slots = state.order ?? [];
  slots.forEach((slot, index) => {
    for (const actor of slot.actors) if (!out.has(actor.id)) out.set(actor.id, slots.length - index);
  });
  for (const c of state.combatants ?? []) if (!out.has(c.actor)) out.set(c.actor, null);
  return out;
}

/**
 * The operations that make Foundry's combat match the bridge's.
 * @param {CombatState} state
 * @param {FoundryCombat | null} combat the current Foundry combat (null: none)
 * @param {(bridgeId: string) => string | null} foundryActorId
 * @returns {CombatOp[]}
 */
export function planCombat(state, combat, foundryActorId) {
  /** @type {CombatOp[]} */
  const ops = [];
  if (!state.active) {
    if (combat) ops.push({ op: 'end' });
    return ops;
  }
  if (!combat) ops.push({ op: 'create' });
  const existing = new Map((combat?.combatants ?? []).map((c) => [c.actorId, c]));
  const wanted = new Set();
  const values = initiatives(state);
  for (const entry of state.combatants ?? []) {
    const actorId = foundryActorId(entry.actor);
    if (!actorId || wanted.has(actorId)) continue;
    wanted.add(actorId);
    const initiative = values.get(entry.actor) ?? null;
    const hidden = Boolean(entry.hidden);
    const have = existing.get(actorId);
    if (!have) ops.push({ op: 'add', actorId, initiative, hidden });
    else if (have.initiative !== initiative || have.hidden !== hidden) ops.push({ op: 'set', id: have.id, initiative, hidden });
  }
  for (const c of combat?.combatants ?? []) if (!c.actorId || !wanted.has(c.actorId)) ops.push({ op: 'remove', id: c.id });
  // Who acts now: the first of `current` that Foundry knows (none while declaring).
  const acting = state.phase === 'act' ? state.current ?? [] : [];
  const turnActor = acting.map((id) => foundryActorId(id)).find((id) => id && wanted.has(id)) ?? null;
  if (!combat || combat.round !== state.round || ops.length || turnActor !== null) {
    ops.push({ op: 'turn', round: state.round, turn: state.turn ?? null, actorId: turnActor });
  }
  return ops;
}

/**
 * The bridge event a Foundry tracker button stands for.
 * @param {'round' | 'turn'} what
 * @returns {'combat_next_round' | 'combat_next_turn'}
 */
export function trackerEvent(what) {
  return what === 'round' ? 'combat_next_round' : 'combat_next_turn';
}
