// @ts-check
// Mirroring the bridge's combat into Foundry's combat tracker.
//
// PROVISIONAL: the server has no `combat_state` push yet (issue 8). This is
// written against the shape
//   {seq, world, active, round, turn, combatants: [{actor, name, initiative, hidden}]}
// where `turn` indexes `combatants` in the bridge's turn order.

/**
 * @typedef {{actor: string, name: string, initiative: number | null, hidden: boolean}} BridgeCombatant
 * @typedef {{seq: number, world: string, active: boolean, round: number, turn: number | null, combatants: BridgeCombatant[]}} CombatState
 * @typedef {{id: string, actorId: string | null, initiative: number | null, hidden: boolean}} FoundryCombatant
 * @typedef {{id: string, round: number, turn: number | null, combatants: FoundryCombatant[]}} FoundryCombat
 * @typedef {{ op: 'create' } | { op: 'end' } |
 *   { op: 'add', actorId: string, initiative: number | null, hidden: boolean } |
 *   { op: 'remove', id: string } |
 *   { op: 'set', id: string, initiative: number | null, hidden: boolean } |
 *   { op: 'turn', round: number, turn: number | null, actorId: string | null }} CombatOp
 */

/**
 * The operations that make Foundry's combat match the bridge's.
 * Bridge initiative keeps the bridge order: Foundry sorts by initiative,
 * so combatants get descending values when the bridge gives none.
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
  const count = state.combatants.length;
  state.combatants.forEach((entry, index) => {
    const actorId = foundryActorId(entry.actor);
    if (!actorId) return;
    wanted.add(actorId);
    const initiative = Number.isFinite(entry.initiative) ? entry.initiative : count - index;
    const have = existing.get(actorId);
    if (!have) ops.push({ op: 'add', actorId, initiative, hidden: Boolean(entry.hidden) });
    else if (have.initiative !== initiative || have.hidden !== Boolean(entry.hidden)) {
      ops.push({ op: 'set', id: have.id, initiative, hidden: Boolean(entry.hidden) });
    }
  });
  for (const c of combat?.combatants ?? []) if (!c.actorId || !wanted.has(c.actorId)) ops.push({ op: 'remove', id: c.id });
  const current = state.turn === null || state.turn === undefined ? null : state.combatants[state.turn];
  const turnActor = current ? foundryActorId(current.actor) : null;
  if (!combat || combat.round !== state.round || ops.length || turnActor !== null) {
    ops.push({ op: 'turn', round: state.round, turn: state.turn ?? null, actorId: turnActor });
  }
  return ops;
}

/**
 * Which bridge GM action a Foundry tracker button stands for, or null.
 * @param {'round' | 'turn'} what
 * @template {{action: string, gm_only: boolean, event: string}} B
 * @param {B[]} buttons every GM button the world offers
 * @returns {B | null}
 */
export function trackerAction(what, buttons) {
  const wanted = what === 'round' ? ['next_round'] : ['next_turn', 'end_turn'];
  return buttons.find((b) => b.gm_only && b.event === 'gm_action' && wanted.includes(b.action)) ?? null;
}
