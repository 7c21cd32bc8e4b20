// A selected actor's sheet: its data shown readably, and its buttons grouped.

import { askForm } from './ask.js';
import { clear, el } from './dom.js';
import { t } from './i18n.js';
import { statusBadges } from './tokens.js';

const humanize = (key) => String(key).replace(/_/g, ' ');

function isPlain(value) {
  return value !== null && typeof value === 'object';
}

function scalar(value) {
  if (value === true) return '✔';
  if (value === false) return '✘';
  if (value === null || value === undefined) return '—';
  return String(value);
}

/** One object as rows; nested objects become titled blocks (with their `label` if they have one). */
function dataBlock(data, depth = 0) {
  const rows = el('dl', { class: 'sheet-rows' });
  const blocks = [];
  const entries = Array.isArray(data) ? data.map((v, i) => [String(i + 1), v]) : Object.entries(data);
  for (const [key, value] of entries) {
    if (!isPlain(value)) {
      rows.append(el('dt', { text: humanize(key) }), el('dd', { text: scalar(value) }));
      continue;
    }
    const { label, ...rest } = Array.isArray(value) ? { label: undefined, ...value } : value;
    const simple = Object.values(rest).every((v) => !isPlain(v));
    if (typeof label === 'string' && simple && 'value' in rest) {
      // e.g. skills: {label, value, attribute...} shows as "Label  value"
      const extra = Object.entries(rest).filter(([k, v]) => k !== 'value' && v !== false && v !== null && v !== '');
      rows.append(
        el('dt', { text: label }),
        el('dd', {}, [scalar(rest.value), extra.length ? el('small', { text: ` (${extra.map(([, v]) => scalar(v)).join(', ')})` }) : null]),
      );
      continue;
    }
    if (!Object.keys(value).length) continue;
    const title = typeof label === 'string' ? label : humanize(key);
    const body = depth < 3 ? dataBlock(typeof label === 'string' ? rest : value, depth + 1) : el('pre', { text: JSON.stringify(value, null, 1) });
    blocks.push(el('section', { class: `sheet-block sheet-block--d${depth}` }, [el('h4', { text: title }), body]));
  }
  return el('div', { class: 'sheet-data' }, [rows.childElementCount ? rows : null, ...blocks]);
}

function groups(buttons, role) {
  const out = new Map();
  for (const button of buttons) {
    if (button.gm_only && role !== 'gm') continue;
    const group = button.group ?? t('others');
    if (!out.has(group)) out.set(group, []);
    out.get(group).push(button);
  }
  return out;
}

/**
 * Renders `actor`'s sheet into `root`. `act(button, {params, targets})` sends
 * the request; `actors` are the possible targets.
 */
export function renderSheet(root, { actor, role, actors, act }) {
  clear(root);
  if (!actor) {
    root.append(el('p', { class: 'empty', text: t('pick') }));
    return;
  }
  const askSlot = el('div', { class: 'ask-slot' });
  const closeAsk = () => clear(askSlot);
  const press = (button) => {
    const needsForm = button.ask.length > 0 || button.max_targets > 0;
    if (!needsForm) {
      act(button, { params: {}, targets: [] });
      return;
    }
    clear(askSlot);
    const form = askForm({
      title: `${actor.name} · ${button.label}`,
      ask: button.ask,
      minTargets: button.min_targets,
      maxTargets: button.max_targets,
      // Others first; the actor itself last (some actions may name it).
      targets: [...actors.filter((a) => a.id !== actor.id), actor],
      self: actor.id,
      onCancel: closeAsk,
      onSubmit: async (chosen) => {
        const ok = await act(button, chosen);
        if (ok) closeAsk();
      },
    });
    askSlot.append(form);
    form.querySelector('select, input, button')?.focus();
  };

  const byGroup = groups(actor.buttons, role);
  const buttonGroups = el('div', { class: 'sheet-buttons' });
  for (const [group, buttons] of byGroup) {
    buttonGroups.append(
      el('section', { class: 'button-group' }, [
        el('h4', { text: group }),
        el(
          'div',
          { class: 'button-row' },
          buttons.map((button) =>
            el('button', {
              type: 'button',
              class: `sheet-button${button.gm_only ? ' sheet-button--gm' : ''}`,
              'data-event': button.event,
              'data-action': button.action,
              'data-params': JSON.stringify(button.params ?? {}),
              text: button.label,
              title: `${button.event} · ${button.action}`,
              on: { click: () => press(button) },
            }),
          ),
        ),
      ]),
    );
  }
  if (!byGroup.size) buttonGroups.append(el('p', { class: 'empty', text: t('noButtons') }));

  root.append(
    el('header', { class: 'sheet-head', 'data-actor': actor.id }, [
      el('h2', { text: actor.name }),
      el('span', { class: 'sheet-owner', text: actor.owner ?? t('nobody') }),
      statusBadges(actor),
    ]),
    buttonGroups,
    askSlot,
    el('details', { class: 'sheet-details', open: true }, [el('summary', { text: t('sheet') }), dataBlock(actor.sheet)]),
    Object.keys(actor.state ?? {}).length
      ? el('details', { class: 'sheet-details' }, [el('summary', { text: 'state' }), dataBlock(actor.state)])
      : null,
  );
}
