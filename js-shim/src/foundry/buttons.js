// @ts-check
// The world's buttons (from welcome / actor_update) as sheet markup, the ask
// forms for their parameters, and target checks. Pure: strings in, strings out.

import { escapeHtml } from './escape.js';

/**
 * @typedef {{name: string, kind: string, label: string | null, required: boolean, default: any,
 *   minimum: number, maximum: number, choices: string[], choice_labels: string[]}} AskParam
 * @typedef {{label: string, event: string, action: string, params: Record<string, unknown>,
 *   group: string | null, ask: AskParam[], min_targets: number, max_targets: number, gm_only: boolean}} BridgeButton
 * @typedef {{id: string, name: string, owner: string | null, statuses: string[], numbers: Record<string, number>,
 *   buttons: BridgeButton[]}} BridgeActor
 */

/** Buttons this user may press (gm_only ones are the GM's). */
export function visibleButtons(/** @type {BridgeActor} */ actor, /** @type {string} */ role) {
  return actor.buttons.map((button, index) => ({ button, index })).filter(({ button }) => role === 'gm' || !button.gm_only);
}

/**
 * The sheet block: buttons grouped as the server groups them. Each button
 * carries `data-vtt-bridge-actor` and `data-vtt-bridge-button` (its index).
 * @param {BridgeActor} actor
 * @param {{role: string, title: string}} options
 */
export function sheetHtml(actor, { role, title }) {
  const groups = new Map();
  for (const entry of visibleButtons(actor, role)) {
    const group = entry.button.group ?? '';
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(entry);
  }
  const parts = [`<details class="vtt-bridge-sheet" open data-vtt-bridge-actor="${escapeHtml(actor.id)}"><summary>${escapeHtml(title)}</summary>`];
  for (const [group, entries] of groups) {
    parts.push('<div class="vtt-bridge-group">');
    if (group) parts.push(`<h4>${escapeHtml(group)}</h4>`);
    for (const { button, index } of entries) {
      parts.push(
        `<button type="button" class="vtt-bridge-button" data-vtt-bridge-actor="${escapeHtml(actor.id)}" data-vtt-bridge-button="${index}" title="${escapeHtml(button.event)}: ${escapeHtml(button.action)}">${escapeHtml(button.label)}</button>`,
      );
    }
    parts.push('</div>');
  }
  parts.push('</details>');
  return parts.join('');
}

/** The form fields asking for `ask` (names are `p_<param>`). */
export function askHtml(/** @type {AskParam[]} */ ask) {
  const rows = ask.map((param) => {
    const name = `p_${escapeHtml(param.name)}`;
    const label = `<span>${escapeHtml(param.label ?? param.name)}</span>`;
    const dflt = param.default ?? '';
    if (param.kind === 'choice') {
      const options = param.required ? [] : ['<option value=""></option>'];
      param.choices.forEach((choice, i) => {
        const selected = String(dflt) === choice ? ' selected' : '';
        options.push(`<option value="${escapeHtml(choice)}"${selected}>${escapeHtml(param.choice_labels?.[i] ?? choice)}</option>`);
      });
      return `<label>${label}<select name="${name}">${options.join('')}</select></label>`;
    }
    if (param.kind === 'bool') {
      return `<label>${label}<input type="checkbox" name="${name}"${param.default === true ? ' checked' : ''}></label>`;
    }
    if (param.kind === 'int') {
      const min = param.minimum > -1e6 ? ` min="${param.minimum}"` : '';
      const max = param.maximum < 1e6 ? ` max="${param.maximum}"` : '';
      return `<label>${label}<input type="number" step="1" name="${name}" value="${escapeHtml(dflt)}"${min}${max}></label>`;
    }
    return `<label>${label}<input type="text" name="${name}" value="${escapeHtml(dflt)}"></label>`;
  });
  return `<div class="vtt-bridge-ask">${rows.join('')}</div>`;
}

/**
 * Form values (`p_<name>` -> text or boolean) -> the params to send.
 * @param {AskParam[]} ask
 * @param {Record<string, string | boolean>} values
 */
export function readAsk(ask, values) {
  /** @type {Record<string, unknown>} */
  const params = {};
  for (const param of ask) {
    const raw = values[`p_${param.name}`];
    if (param.kind === 'bool') {
      const on = raw === true || raw === 'on' || raw === 'true';
      if (on || param.required || param.default === true) params[param.name] = on;
    } else if (param.kind === 'int') {
      if (raw === undefined || raw === '' || raw === false) continue;
      const n = Number.parseInt(String(raw), 10);
      if (Number.isFinite(n)) params[param.name] = n;
    } else if (raw !== undefined && raw !== false && (raw !== '' || param.required)) {
      params[param.name] = String(raw);
    }
  }
  return params;
}

/**
 * Checks the targeted actors against a button's target range.
 * @param {BridgeButton} button
 * @param {string[]} targets bridge actor ids
 * @returns {{ok: true, targets: string[]} | {ok: false, min: number, max: number, count: number}}
 */
export function checkTargets(button, targets) {
  if (button.max_targets === 0) return { ok: true, targets: [] };
  const unique = [...new Set(targets)];
  if (unique.length < button.min_targets || unique.length > button.max_targets) {
    return { ok: false, min: button.min_targets, max: button.max_targets, count: unique.length };
  }
  return { ok: true, targets: unique };
}

/** The attack buttons a token HUD offers. */
export function attackButtons(/** @type {BridgeActor} */ actor, /** @type {string} */ role) {
  return visibleButtons(actor, role).filter(({ button }) => button.event === 'attack');
}

/**
 * Finds a button for the macro API by action id, label, or a params match.
 * @param {BridgeActor} actor
 * @param {string} which action id or label
 * @param {Record<string, unknown>} [params]
 */
export function findButton(actor, which, params = {}) {
  const matches = actor.buttons.filter((b) => b.action === which || b.label === which);
  const exact = matches.find((b) => Object.entries(b.params).every(([k, v]) => params[k] === undefined || params[k] === v));
  return exact ?? matches[0] ?? null;
}
