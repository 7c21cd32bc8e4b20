// What the userscript types into Roll20's chat box: cards as the `default`
// roll template (Roll20 shows HTML only from a Mod script's `/direct`, so a
// player's chat box cannot post raw HTML), follow-up buttons as Roll20 API
// buttons `[label](!vtt-card <card_id> <action>)`, and the `!vtt-bridge`
// commands for the Mod script.

/**
 * Text made inert for Roll20's chat parser: every character Roll20 gives a
 * meaning (`{{ }}` template keys, `[[ ]]` rolls, `@{ }` `%{ }` `&{ }` `?{ }`
 * references, `[label](link)` buttons, `=` and `|`) and HTML's `< > &` become
 * numeric entities, which Roll20 shows as the characters themselves.
 */
export function inert(value) {
  return String(value ?? '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[&<>"{}[\]()@%?|=*_~`\\^$#:!]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const LABELS = {
  es: { dice: 'Dados', outcome: 'Resultado', actions: 'Acciones', speaker: 'Quién', target: 'Objetivo' },
  en: { dice: 'Dice', outcome: 'Outcome', actions: 'Actions', speaker: 'Who', target: 'Target' },
};

/** The API button a card's follow-up becomes; the userscript catches its clicks. */
export function cardButtonCommand(cardId, action) {
  return `!vtt-card ${cardId} ${action}`;
}

/** Parses an API button link (`!vtt-card 42.0 oppose`, possibly URL-encoded). */
export function parseCardButton(href) {
  let text = String(href ?? '');
  try {
    text = decodeURIComponent(text);
  } catch {
    /* keep it raw */
  }
  const match = /^!vtt-card\s+(\d+\.\d+)\s+([A-Za-z0-9_.-]+)\s*$/.exec(text.trim());
  return match ? { card: match[1], action: match[2] } : null;
}

/**
 * One card as a chat line: `[/w gm ]&{template:default} {{name=…}} {{key=value}}…`.
 * `withSpeaker` adds a row naming the speaker (when the chat cannot speak as it).
 */
export function formatCard(card, { withSpeaker = false } = {}) {
  const L = LABELS[card.locale] ?? LABELS.es;
  const rows = [];
  const used = new Map();
  const row = (key, value) => {
    // Roll20 keeps one value per template key: repeat keys get zero-width spaces.
    const base = inert(key) || '&#8203;';
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    rows.push(`{{${base}${'&#8203;'.repeat(n)}=${value}}}`);
  };
  rows.push(`{{name=${inert(card.title)}}}`);
  if (withSpeaker && card.speaker_name) row(L.speaker, inert(card.speaker_name));
  if (card.dice?.length) {
    const faces = card.dice.map((d) => {
      const shown = d.faces.join('+');
      return d.kept ? shown : `(${shown})`;
    });
    row(L.dice, inert(faces.join(' ')));
  }
  for (const section of card.sections ?? []) {
    for (const line of section.lines ?? []) {
      const at = line.indexOf(': ');
      if (at > 0) row(line.slice(0, at), inert(line.slice(at + 2)));
      else row(section.title ?? ' ', inert(line));
    }
  }
  if (card.outcome?.label) row(L.outcome, inert(card.outcome.label));
  const buttons = (card.actions ?? []).map(
    (a) => `[${inert(a.label)}](${cardButtonCommand(card.card_id, a.id)})`,
  );
  if (buttons.length) row(L.actions, buttons.join(' '));
  const body = `&{template:default} ${rows.join(' ')}`;
  return card.visibility === 'gm' ? `/w gm ${body}` : body;
}

/** `!vtt-bridge <verb> key=value …`, every value URL-encoded (no spaces, no Roll20 syntax). */
export function bridgeCommand(verb, fields = {}) {
  const parts = [`!vtt-bridge ${verb}`];
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined || value === '') continue;
    parts.push(`${key}=${encodeURIComponent(String(value))}`);
  }
  return parts.join(' ');
}

/** The Mod-script command for one token_status push (or an actor from the welcome). */
export function statusCommand(status) {
  const numbers = Object.entries(status.numbers ?? {})
    .filter(([, v]) => Number.isFinite(v))
    .map(([k, v]) => `${k}:${v}`)
    .join(',');
  return bridgeCommand('status', {
    actor: status.actor ?? status.id,
    token: status.token,
    name: status.name,
    set: (status.statuses ?? []).join(',') || '-',
    n: numbers,
  });
}

/**
 * The Roll20 turn order for a `combat_state`: the slots from whoever acts now
 * to the end of the order, then the ones that already came (Roll20's top entry
 * is the current turn), and a "round" entry last. `actors` (bridge id ->
 * actor) give the tokens; a hidden combatant goes in as a custom entry named
 * `unknown`, so its token's name never shows. Returns `!vtt-bridge turn set`
 * (or `turn clear` once combat ends).
 */
export function turnOrderCommand(combat, actors, { unknown = '?', round = 'Round' } = {}) {
  if (!combat?.active) return bridgeCommand('turn clear');
  const hidden = new Set((combat.combatants ?? []).filter((c) => c.hidden).map((c) => c.actor));
  const slots = combat.order ?? [];
  const start = combat.phase === 'act' && Number.isInteger(combat.turn) && combat.turn >= 0 && combat.turn < slots.length ? combat.turn : 0;
  const rotated = [...slots.slice(start), ...slots.slice(0, start)];
  const entries = [];
  rotated.forEach((slot) => {
    const pr = slot.label ?? String(slots.length - slots.indexOf(slot));
    for (const { id, name } of slot.actors) {
      const actor = actors.get(id);
      if (hidden.has(id)) entries.push({ custom: unknown, pr });
      else entries.push({ token: actor?.token ?? '', name: actor?.name ?? name, pr });
    }
  });
  entries.push({ custom: round, pr: String(combat.round) });
  // Compact: [token, name, pr] for a token, [null, custom, pr] for a custom entry.
  const list = entries.map((e) => (e.custom !== undefined ? [null, e.custom, e.pr] : [e.token, e.name, e.pr]));
  return bridgeCommand('turn set', { list: JSON.stringify(list) });
}
