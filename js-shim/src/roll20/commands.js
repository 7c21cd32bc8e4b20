// The `!vtt` chat command grammar: a player types it, or a macro / ability
// sends it, and it becomes one `roll` / `attack` / ... request, chosen from
// the actor's `buttons` (welcome / actor_update data).
//
//   !vtt [<event>] <actor> <action> [<word> ...] [key=value ...] [@target ...]
//   !vtt help [<actor>]
//
// <event>   optional: roll | attack | damage_apply | soak | heal | gm_action
// <actor>   actor id, name, or Roll20 token id (e.g. @{selected|token_id})
// <action>  a button's action id (attribute, skill, attack...), one of its
//           preset values (sigilo, espada) or its label ("Recargar Ballesta")
// <word>    more preset values or labels that narrow the choice (attack espada)
// key=value a preset param (narrows: weapon=ballesta) or an asked param
//           (modifier=2 level=dificil give_token=si); values may be "quoted"
// @target   targets, by id, name or token id (@bruno @"Bandido Uno" @-Mabc)

export const EVENTS = ['roll', 'attack', 'damage_apply', 'soak', 'heal', 'gm_action'];

const TRUE = new Set(['true', 'yes', 'si', 'sí', 'y', 's', '1', 'on']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off']);

/** Lower case, no accents, spaces and dashes as underscores: "Advertir/Notar" ~ "advertir_notar". */
export function norm(value) {
  return String(value ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/[\s\-/]+/g, '_');
}

/** Splits on spaces, keeping "double quoted" parts (also after `key=` or `@`) together. */
export function tokenize(text) {
  const out = [];
  const re = /(?:[^\s"]+|"[^"]*")+/g;
  for (const match of String(text).matchAll(re)) out.push(match[0].replace(/"/g, ''));
  return out;
}

/** True when a chat line is a `!vtt` command (not `!vtt-bridge` / `!vtt-card`). */
export function isVttCommand(text) {
  return /^!vtt(\s|$)/.test(String(text).trim());
}

export function findActor(actors, word) {
  const key = norm(word);
  return (
    actors.find((a) => a.id === word) ||
    actors.find((a) => a.token && a.token === word) ||
    actors.find((a) => norm(a.id) === key) ||
    actors.find((a) => norm(a.name) === key) ||
    null
  );
}

const MESSAGES = {
  es: {
    usage: 'Uso: !vtt [evento] <actor> <acción> [valor…] [clave=valor…] [@objetivo…] · !vtt help [actor]',
    no_actor: (w) => `No hay ningún actor «${w}».`,
    no_action: (w, a) => `${a} no tiene ninguna acción «${w}».`,
    no_target: (w) => `No hay ningún objetivo «${w}».`,
    ambiguous: (list) => `Hay varias acciones posibles: ${list}. Añade una palabra para elegir.`,
    bad_param: (k, list) => `«${k}» no es un parámetro de esta acción (${list || 'ninguno'}).`,
    bad_int: (k, v) => `${k} debe ser un número entero (no «${v}»).`,
    bad_bool: (k, v) => `${k} debe ser sí o no (no «${v}»).`,
    bad_choice: (k, v, list) => `${k} no admite «${v}»: ${list}.`,
    missing: (k) => `Falta ${k}=…`,
    actions: (a) => `Acciones de ${a}:`,
    actors: 'Actores:',
  },
  en: {
    usage: 'Usage: !vtt [event] <actor> <action> [value…] [key=value…] [@target…] · !vtt help [actor]',
    no_actor: (w) => `There is no actor "${w}".`,
    no_action: (w, a) => `${a} has no action "${w}".`,
    no_target: (w) => `There is no target "${w}".`,
    ambiguous: (list) => `Several actions match: ${list}. Add a word to choose.`,
    bad_param: (k, list) => `"${k}" is not a parameter of this action (${list || 'none'}).`,
    bad_int: (k, v) => `${k} must be a whole number (not "${v}").`,
    bad_bool: (k, v) => `${k} must be yes or no (not "${v}").`,
    bad_choice: (k, v, list) => `${k} does not take "${v}": ${list}.`,
    missing: (k) => `Missing ${k}=…`,
    actions: (a) => `${a}'s actions:`,
    actors: 'Actors:',
  },
};

export function messages(locale) {
  return MESSAGES[locale] ?? MESSAGES.es;
}

function fail(message) {
  return { ok: false, message };
}

function presetValues(button) {
  return Object.values(button.params ?? {}).map((v) => norm(v));
}

function matchesWord(button, word) {
  const key = norm(word);
  return norm(button.action) === key || norm(button.label) === key || presetValues(button).includes(key);
}

/** A button's short form for help and ambiguity messages: `skill sigilo`. */
export function buttonWords(button) {
  const values = Object.values(button.params ?? {}).filter((v) => typeof v === 'string');
  return [button.action, ...values].join(' ');
}

export function convertParam(ask, raw, t = messages()) {
  const value = String(raw);
  if (ask.kind === 'int' || ask.kind === 'number') {
    if (!/^[+-]?\d+$/.test(value)) return { error: t.bad_int(ask.name, value) };
    return { value: Number.parseInt(value, 10) };
  }
  if (ask.kind === 'bool') {
    const key = norm(value);
    if (TRUE.has(key)) return { value: true };
    if (FALSE.has(key)) return { value: false };
    return { error: t.bad_bool(ask.name, value) };
  }
  if (ask.kind === 'choice') {
    const key = norm(value);
    const labels = ask.choice_labels ?? [];
    const index = ask.choices.findIndex((c, i) => norm(c) === key || norm(labels[i]) === key);
    if (index < 0) return { error: t.bad_choice(ask.name, value, ask.choices.join(', ')) };
    return { value: ask.choices[index] };
  }
  return { value };
}

/**
 * Parses one `!vtt` line against the known actors. Returns
 * `{ok: true, help: ...}`, `{ok: true, event, payload, button}` or
 * `{ok: false, message}` (a readable message in `locale`).
 */
export function parseCommand(text, actors, locale = 'es') {
  const t = messages(locale);
  const words = tokenize(String(text).trim()).slice(1); // drop "!vtt"
  if (!words.length) return fail(t.usage);
  if (norm(words[0]) === 'help' || words[0] === '?') return { ok: true, help: helpText(actors, words[1], t) };

  let event = null;
  if (EVENTS.includes(words[0]) && words.length > 2) event = words.shift();
  const actorWord = words.shift() ?? '';
  const actor = findActor(actors, actorWord);
  if (!actor) return fail(t.no_actor(actorWord));

  const bare = [];
  const pairs = [];
  const targets = [];
  for (const word of words) {
    if (word.startsWith('@') && word.length > 1) {
      const target = findActor(actors, word.slice(1));
      if (!target) return fail(t.no_target(word.slice(1)));
      targets.push(target.id);
    } else if (/^[^=]+=/.test(word)) {
      const at = word.indexOf('=');
      pairs.push([word.slice(0, at), word.slice(at + 1)]);
    } else {
      bare.push(word);
    }
  }
  if (!bare.length) return fail(t.usage);

  const buttons = (actor.buttons ?? []).filter((b) => !event || b.event === event);
  const [first, ...rest] = bare;
  let candidates = buttons.filter((b) => matchesWord(b, first));
  if (!candidates.length) return fail(t.no_action(first, actor.name));
  for (const word of rest) {
    const narrowed = candidates.filter((b) => matchesWord(b, word));
    if (!narrowed.length) return fail(t.no_action(`${first} ${word}`, actor.name));
    candidates = narrowed;
  }
  // key=value naming a preset param narrows too.
  const asked = [];
  for (const [key, value] of pairs) {
    const withPreset = candidates.filter((b) => b.params && key in b.params);
    if (withPreset.length) {
      const narrowed = withPreset.filter((b) => norm(b.params[key]) === norm(value));
      if (!narrowed.length) return fail(t.no_action(`${key}=${value}`, actor.name));
      candidates = narrowed;
    } else {
      asked.push([key, value]);
    }
  }
  if (candidates.length > 1) {
    // Prefer buttons whose preset values were all named, then the simplest.
    const named = new Set([...bare, ...pairs.map(([, v]) => v)].map(norm));
    const explained = candidates.filter((b) => presetValues(b).every((v) => named.has(v) || v === 'true'));
    const pool = explained.length ? explained : candidates;
    const fewest = Math.min(...pool.map((b) => Object.keys(b.params ?? {}).length));
    const simplest = pool.filter((b) => Object.keys(b.params ?? {}).length === fewest);
    if (simplest.length > 1) return fail(t.ambiguous(simplest.map(buttonWords).join(' | ')));
    candidates = simplest;
  }
  const button = candidates[0];

  const params = { ...(button.params ?? {}) };
  const asks = button.ask ?? [];
  for (const [key, raw] of asked) {
    const ask = asks.find((a) => a.name === key) ?? asks.find((a) => norm(a.name) === norm(key));
    if (!ask) return fail(t.bad_param(key, asks.map((a) => a.name).join(', ')));
    const converted = convertParam(ask, raw, t);
    if (converted.error) return fail(converted.error);
    params[ask.name] = converted.value;
  }
  for (const ask of asks) {
    if (ask.required && !(ask.name in params)) return fail(t.missing(ask.name));
  }
  return {
    ok: true,
    event: button.event,
    button,
    payload: { actor: actor.id, action: button.action, params, targets },
  };
}

function helpText(actors, word, t) {
  if (word) {
    const actor = findActor(actors, word);
    if (!actor) return [t.no_actor(word)];
    const lines = [t.actions(actor.name)];
    for (const b of actor.buttons ?? []) {
      const asks = (b.ask ?? []).map((a) => `${a.name}=${a.kind === 'choice' ? a.choices.join('|') : a.kind}`);
      const targets = b.max_targets ? ` @${b.min_targets ? '' : '['}objetivo${b.min_targets ? '' : ']'}` : '';
      lines.push(`!vtt ${actor.id} ${buttonWords(b)}${asks.length ? ' [' + asks.join(' ') + ']' : ''}${targets} — ${b.label}`);
    }
    return lines;
  }
  return [t.usage, `${t.actors} ${actors.map((a) => `${a.id} (${a.name})`).join(', ')}`];
}
