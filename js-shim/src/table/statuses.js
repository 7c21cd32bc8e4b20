// The canonical token statuses (rules/statuses.py) with an icon each, and a
// fallback label for the GM panel when the system's own label is not at hand.

// Icons are plain Unicode symbols (with U+FE0E, "text presentation") that the
// common Linux, macOS and Windows fonts carry, so no emoji font is needed.
export const STATUSES = {
  stunned: ['✷', 'Aturdido', 'Stunned'],
  bleeding: ['♥', 'Sangrando', 'Bleeding'],
  incapacitated: ['⊘', 'Incapacitado', 'Incapacitated'],
  unconscious: ['☾', 'Inconsciente', 'Unconscious'],
  dead: ['☠', 'Muerto', 'Dead'],
  prone: ['⤓', 'Derribado', 'Prone'],
  grappled: ['⊕', 'Agarrado', 'Grappled'],
  impaired: ['⇣', 'Impedido', 'Impaired'],
  wounded: ['✚', 'Herido', 'Wounded'],
  on_hold: ['⚑', 'En espera', 'On hold'],
  joker: ['★', 'Comodín', 'Joker'],
  aiming: ['◎', 'Apuntando', 'Aiming'],
  overwatch: ['☉', 'Vigilando', 'Overwatch'],
  jammed: ['⚙', 'Encasquillado', 'Jammed'],
  dodging: ['↯', 'Esquivando', 'Dodging'],
  parrying: ['⚔', 'Parando', 'Parrying'],
};

export const STATUS_IDS = Object.keys(STATUSES);

export function statusIcon(id) {
  return `${STATUSES[id]?.[0] ?? '?'}\uFE0E`;
}

export function statusLabel(id, labels, locale) {
  if (labels && typeof labels[id] === 'string') return labels[id];
  const known = STATUSES[id];
  if (!known) return id;
  return locale === 'en' ? known[2] : known[1];
}
