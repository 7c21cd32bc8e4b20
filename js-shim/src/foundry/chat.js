// @ts-check
// Bridge chat cards -> Foundry ChatMessage data, their dice as Roll data
// (Dice So Nice animates a message's rolls), used follow-up buttons.

export const MODULE_ID = 'vtt-bridge';

/**
 * @typedef {{sides: number, faces: number[], role: string, kept: boolean, group: number, total: number}} DieView
 * @typedef {{id: string, label: string, actor: string, allowed: string, once: boolean, used: boolean, ask: any[]}} FollowUp
 * @typedef {{seq: number, card_id: string, world: string, kind: string, speaker: string | null,
 *   speaker_name: string | null, target: string | null, visibility: 'public' | 'gm', title: string,
 *   dice: DieView[], actions: FollowUp[], html: string, text: string}} ChatCard
 * @typedef {{card: string, seq: number, world: string, actions: FollowUp[], used: string[]}} CardFlags
 */

/** One Die term (serialized as Foundry's RollTerm data) for one bridge die. */
export function dieTerm(/** @type {DieView} */ die) {
  const last = die.faces.length - 1;
  return {
    class: 'Die',
    number: 1,
    faces: die.sides,
    modifiers: last > 0 ? ['x'] : [],
    results: die.faces.map((result, i) => ({
      result,
      active: die.kept,
      ...(die.kept ? {} : { discarded: true }),
      ...(i < last ? { exploded: true } : {}),
    })),
    options: { flavor: die.role },
    evaluated: true,
  };
}

/**
 * The card's dice as serialized Rolls (one per dice group), for `Roll.fromData`.
 * @param {DieView[]} dice
 */
export function rollsData(dice) {
  const groups = new Map();
  for (const die of dice ?? []) {
    if (!Number.isInteger(die.sides) || die.sides < 1 || !die.faces?.length) continue;
    if (!groups.has(die.group)) groups.set(die.group, []);
    groups.get(die.group).push(die);
  }
  const out = [];
  for (const group of [...groups.keys()].sort((a, b) => a - b)) {
    const terms = [];
    const parts = [];
    let total = 0;
    for (const die of groups.get(group)) {
      if (terms.length) {
        terms.push({ class: 'OperatorTerm', operator: '+', options: {}, evaluated: true });
        parts.push('+');
      }
      terms.push(dieTerm(die));
      parts.push(`1d${die.sides}${die.faces.length > 1 ? 'x' : ''}[${die.role}]`);
      if (die.kept) total += die.total;
    }
    out.push({ class: 'Roll', options: {}, dice: [], formula: parts.join(' '), terms, total, evaluated: true });
  }
  return out;
}

/** Adds `disabled` to the card html's follow-up buttons whose action was used. */
export function markUsed(html, used) {
  const done = new Set(used);
  return String(html).replace(/<button\b([^>]*?)\sdata-action="([^"]*)"([^>]*)>/g, (whole, before, action, after) => {
    if (!done.has(action) || /\sdisabled\b/.test(before + after)) return whole;
    return `<button${before} data-action="${action}"${after} disabled>`;
  });
}

/**
 * The ChatMessage data for a pushed card.
 * @param {ChatCard} card
 * @param {{gmIds: string[], speakerActorId: string | null}} context
 */
export function cardMessageData(card, { gmIds, speakerActorId }) {
  const used = card.actions.filter((a) => a.used).map((a) => a.id);
  /** @type {CardFlags} */
  const flags = { card: card.card_id, seq: card.seq, world: card.world, actions: card.actions, used };
  return {
    content: markUsed(card.html, used),
    speaker: { alias: card.speaker_name ?? 'vtt-bridge', actor: speakerActorId },
    whisper: card.visibility === 'gm' ? [...gmIds] : [],
    flags: { [MODULE_ID]: flags },
    rolls: rollsData(card.dice),
  };
}

/**
 * Whether this client creates the ChatMessage of a pushed card: the active GM
 * does; with no GM in Foundry, the first active user (by id) does public ones.
 * @param {ChatCard} card
 * @param {{me: string, activeGM: string | null, activeUsers: string[]}} who
 */
export function shouldCreateCard(card, { me, activeGM, activeUsers }) {
  if (activeGM) return me === activeGM;
  if (card.visibility === 'gm') return false;
  const first = [...activeUsers].sort()[0];
  return first === me;
}

/**
 * Merges newly used button ids into a message's flags; null when nothing changes.
 * @param {CardFlags} flags
 * @param {string[]} used
 */
export function applyCardUpdate(flags, used) {
  const before = new Set(flags.used ?? []);
  const fresh = used.filter((id) => !before.has(id));
  if (!fresh.length) return null;
  return { ...flags, used: [...before, ...fresh] };
}
