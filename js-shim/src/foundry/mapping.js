// @ts-check
// Foundry actors -> bridge sheets (`actor_upsert`), and bridge numbers ->
// Foundry actor fields. Pure: it reads plain snapshots made by foundry-api.js.

/**
 * @typedef {{id: string, type: string, name: string, system: any}} ItemSnap
 * @typedef {{id: string, name: string, type: string, system: any, items: ItemSnap[],
 *   owners: string[], bridgeId: string | null}} ActorSnap
 * @typedef {{actorTypes: string[], sheet: Record<string, string>, numbers: Record<string, string>}} GenericMapping
 */

/** Foundry SWADE attribute keys -> savage_worlds sheet keys. */
export const SWADE_ATTRIBUTES = { agility: 'agilidad', smarts: 'astucia', spirit: 'espiritu', strength: 'fuerza', vigor: 'vigor' };

/** SWADE skill ids (`system.swid`) -> the skills the savage_worlds rules read. */
export const SWADE_SKILLS = {
  fighting: 'pelear',
  shooting: 'disparar',
  athletics: 'atletismo',
  notice: 'notar',
  stealth: 'sigilo',
  healing: 'sanar',
  taunt: 'provocar',
  intimidation: 'intimidar',
  throwing: 'lanzar',
};

/** SWADE edge ids -> the edges the savage_worlds rules read. */
export const SWADE_EDGES = { 'level-headed': 'temple', 'improved-level-headed': 'temple', quick: 'rapido', frenzy: 'frenesi', 'improved-frenzy': 'frenesi', 'rock-and-roll': 'sin_retroceso' };

const DICE = [4, 6, 8, 10, 12];

/** Bridge numbers written back to a SWADE actor. */
export const SWADE_NUMBERS = { wounds: 'system.wounds.value', bennies: 'system.bennies.value' };

/** A starting generic mapping ("Simple Worldbuilding" style attributes) per bridge system. */
/** @type {Record<string, GenericMapping>} */
export const GENERIC_DEFAULTS = {
  o3d10: { actorTypes: ['character'], sheet: { attributes: 'system.attributes.attributes', skills: 'system.attributes.skills' }, numbers: { pv: 'system.health.value', pv_max: 'system.health.max' } },
  omerta: { actorTypes: ['character'], sheet: { '*': 'json:system.attributes.bridge.sheet.value' }, numbers: { hp: 'system.health.value', hp_max: 'system.health.max' } },
  cunchillos: { actorTypes: ['character'], sheet: { '*': 'json:system.attributes.bridge.sheet.value' }, numbers: { pv: 'system.health.value' } },
  brp_d10: { actorTypes: ['character'], sheet: { '*': 'json:system.attributes.bridge.sheet.value' }, numbers: { wounds: 'system.health.value' } },
};

/** @param {string} system */
export function defaultMapping(system) {
  return structuredClone(GENERIC_DEFAULTS[system] ?? { actorTypes: ['character'], sheet: { '*': 'json:system.attributes.bridge.sheet.value' }, numbers: {} });
}

/** @param {any} obj @param {string} path */
export function getPath(obj, path) {
  let here = obj;
  for (const key of String(path).split('.')) {
    if (here === null || typeof here !== 'object') return undefined;
    here = here[key];
  }
  return here;
}

/** ASCII lower-case slug of at most `max` characters (bridge keys). */
export function slug(text, max = 40) {
  const out = String(text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max);
  return out || 'x';
}

/** The bridge actor id of a Foundry actor: a flag set by the GM, else its Foundry id. */
export function bridgeIdOf(/** @type {ActorSnap} */ actor) {
  return actor.bridgeId || actor.id;
}

function die(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return 4;
  return DICE.reduce((best, d) => (Math.abs(d - n) < Math.abs(best - n) ? d : best), 4);
}

function clampInt(value, low, high, fallback) {
  const n = Math.trunc(Number(value));
  if (!Number.isFinite(n)) return fallback;
  return Math.min(high, Math.max(low, n));
}

const DAMAGE = /^\d*d\d+([+-]\d+)?$/;

/** SWADE damage text ("@str+d6", "2d6+1") -> [kind hint, dice the bridge accepts or null]. */
export function swadeDamage(raw) {
  const text = String(raw ?? '').toLowerCase().replace(/\s+/g, '');
  const melee = text.includes('@str');
  const rest = text.replace(/@str/g, '').replace(/^\+/, '').replace(/\+$/, '');
  if (rest === '') return { melee, damage: melee ? '' : null };
  return { melee, damage: DAMAGE.test(rest) ? rest : null };
}

function swadeWeapons(items) {
  const out = [];
  const used = new Set();
  for (const item of items) {
    if (item.type !== 'weapon' || out.length >= 30) continue;
    const sys = item.system ?? {};
    const { melee, damage } = swadeDamage(sys.damage);
    if (damage === null) continue;
    let id = slug(item.name, 36);
    if (id === 'unarmed') id = 'unarmed_w';
    for (let i = 2; used.has(id); i += 1) id = `${slug(item.name, 34)}_${i}`;
    used.add(id);
    const range = String(sys.range ?? '').trim();
    const thrown = !melee && /throw/i.test(String(sys.swid ?? '') + String(sys.actions?.trait ?? ''));
    const kind = melee && !range ? 'melee' : thrown ? 'thrown' : melee ? 'melee' : 'ranged';
    if (kind !== 'melee' && !damage) continue;
    /** @type {Record<string, unknown>} */
    const weapon = { id, name: String(item.name).slice(0, 60) || id, kind, damage, rof: clampInt(sys.rof ?? 1, 1, 6, 1), ap: clampInt(sys.ap ?? 0, 0, 100, 0) };
    const shots = Number(sys.shots);
    if (kind === 'ranged' && Number.isInteger(shots) && shots > 0) weapon.shots = Math.min(shots, 10000);
    if (sys.isHeavyWeapon === true) weapon.heavy = true;
    const minStr = String(sys.minStr ?? '').match(/d(\d+)/);
    if (minStr && DICE.includes(Number(minStr[1]))) weapon.min_str = Number(minStr[1]);
    out.push(weapon);
  }
  return out;
}

/**
 * A SWADE game system actor (character or npc) -> a savage_worlds sheet.
 * @param {ActorSnap} actor
 */
export function swadeSheet(actor) {
  const sys = actor.system ?? {};
  const attributes = {};
  for (const [from, to] of Object.entries(SWADE_ATTRIBUTES)) attributes[to] = die(sys.attributes?.[from]?.die?.sides ?? 4);
  const skills = {};
  for (const item of actor.items) {
    if (item.type !== 'skill') continue;
    const swid = String(item.system?.swid ?? '');
    const key = SWADE_SKILLS[swid] ?? slug(swid && swid !== 'none' ? swid : item.name);
    if (key in skills) continue;
    skills[key] = {
      die: die(item.system?.die?.sides ?? 4),
      modifier: clampInt(item.system?.die?.modifier ?? 0, -10, 10, 0),
      label: String(item.name).slice(0, 60) || key,
    };
  }
  const edges = [];
  for (const item of actor.items) {
    const edge = item.type === 'edge' ? SWADE_EDGES[String(item.system?.swid ?? slug(item.name).replace(/_/g, '-'))] : null;
    if (edge && !edges.includes(edge)) edges.push(edge);
  }
  const wild = actor.type === 'character' || sys.wildcard === true;
  return {
    wild_card: wild,
    side: actor.type === 'character' ? 'heroes' : 'villains',
    attributes,
    skills,
    pace: clampInt(sys.stats?.speed?.value ?? sys.pace?.ground ?? 6, 1, 100, 6),
    armor: clampInt(sys.stats?.toughness?.armor ?? 0, 0, 100, 0),
    bennies: clampInt(sys.bennies?.max ?? (wild ? 3 : 0), 0, 100, wild ? 3 : 0),
    edges,
    weapons: swadeWeapons(actor.items),
  };
}

function flatten(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return numeric(value);
  const entries = Object.entries(value);
  if (entries.length && entries.every(([, v]) => v !== null && typeof v === 'object' && 'value' in v)) {
    return Object.fromEntries(entries.map(([k, v]) => [k, numeric(v.value)]));
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, numeric(v)]));
}

function numeric(value) {
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}

/**
 * A generic sheet ("Simple Worldbuilding" style) actor -> a bridge sheet, by the world's mapping.
 * Throws an Error naming the path when a `json:` source is not JSON.
 * @param {ActorSnap} actor
 * @param {GenericMapping} mapping
 */
export function genericSheet(actor, mapping) {
  const read = (source) => {
    if (source.startsWith('json:')) {
      const text = getPath(actor, source.slice(5));
      if (text === undefined || text === null || text === '') return undefined;
      try {
        return typeof text === 'string' ? JSON.parse(text) : text;
      } catch {
        throw new Error(`${source.slice(5)} is not JSON`);
      }
    }
    const value = getPath(actor, source);
    return value === undefined ? undefined : flatten(value);
  };
  /** @type {Record<string, unknown>} */
  let sheet = {};
  for (const [field, source] of Object.entries(mapping.sheet ?? {})) {
    const value = read(String(source));
    if (value === undefined) continue;
    if (field === '*') sheet = { ...sheet, ...(typeof value === 'object' && value ? value : {}) };
    else sheet[field] = value;
  }
  return sheet;
}

/**
 * Checks a mapping the GM typed; returns it normalized or throws an Error.
 * @param {unknown} raw
 * @returns {GenericMapping}
 */
export function readMapping(raw) {
  const value = typeof raw === 'string' ? JSON.parse(raw) : raw;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('the mapping must be an object');
  const { actorTypes = ['character'], sheet = {}, numbers = {} } = /** @type {any} */ (value);
  if (!Array.isArray(actorTypes) || !actorTypes.every((t) => typeof t === 'string')) throw new Error('actorTypes must be a list of texts');
  for (const [name, part] of [['sheet', sheet], ['numbers', numbers]]) {
    if (!part || typeof part !== 'object' || Array.isArray(part)) throw new Error(`${name} must be an object`);
    for (const [k, v] of Object.entries(part)) if (typeof v !== 'string' || !v) throw new Error(`${name}.${k} must be a path`);
  }
  return { actorTypes, sheet, numbers };
}

/**
 * Decides how a Foundry actor becomes a bridge actor in this world, or null when it is not synced.
 * @param {{foundrySystem: string, bridgeSystem: string, mapping: GenericMapping}} world
 * @param {ActorSnap} actor
 * @returns {{id: string, name: string, owner: string | null, sheet: Record<string, unknown>} | null}
 */
export function actorPayload(world, actor) {
  /** @type {Record<string, unknown>} */
  let sheet;
  if (world.foundrySystem === 'swade' && world.bridgeSystem === 'savage_worlds') {
    if (actor.type !== 'character' && actor.type !== 'npc') return null;
    sheet = swadeSheet(actor);
  } else {
    if (!world.mapping.actorTypes.includes(actor.type)) return null;
    sheet = genericSheet(actor, world.mapping);
    if (!Object.keys(sheet).length) return null;
  }
  return { id: bridgeIdOf(actor), name: String(actor.name || actor.id).slice(0, 100), owner: actor.owners[0] ?? null, sheet };
}

/**
 * The Foundry update that writes bridge numbers (wounds, hit points...) to an actor.
 * @param {Record<string, string>} paths bridge number -> Foundry path
 * @param {Record<string, number>} numbers
 * @param {any} actorSystemHolder the actor snapshot (to skip unchanged values)
 */
export function numbersUpdate(paths, numbers, actorSystemHolder) {
  /** @type {Record<string, number>} */
  const update = {};
  for (const [key, path] of Object.entries(paths)) {
    if (!(key in numbers)) continue;
    if (getPath(actorSystemHolder, path) === numbers[key]) continue;
    update[path] = numbers[key];
  }
  return update;
}

/** Stable text of a payload, to skip upserts that change nothing. */
export function fingerprint(value) {
  const seen = (v) => {
    if (Array.isArray(v)) return `[${v.map(seen).join(',')}]`;
    if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${seen(v[k])}`).join(',')}}`;
    return JSON.stringify(v ?? null);
  };
  return seen(value);
}
