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

const NAME_KEYS = ['label', 'name'];

const isScalar = (value) => !isPlain(value);
const isScalarList = (value) => Array.isArray(value) && value.every(isScalar);
/** A record whose values are all scalars or lists of scalars (a skill, a weapon). */
const isFlatRecord = (value) =>
  isPlain(value) && !Array.isArray(value) && Object.values(value).every((v) => isScalar(v) || isScalarList(v));

function cell(value) {
  if (isScalarList(value)) return value.map(scalar).join(', ');
  if (value === false || value === null || value === undefined || value === '') return '';
  return scalar(value);
}

function entriesOf(data) {
  return Array.isArray(data) ? data.map((v, i) => [String(i + 1), v]) : Object.entries(data);
}

/** A collection of flat records (skills, weapons; an object or a list) as one table. */
function recordTable(title, data) {
  const rows = entriesOf(data);
  const nameOf = (key, record) => NAME_KEYS.map((k) => record[k]).find((v) => typeof v === 'string' && v) ?? humanize(key);
  const columns = [];
  for (const [, record] of rows) {
    for (const key of Object.keys(record)) {
      if (NAME_KEYS.includes(key) || (key === 'id' && Array.isArray(data)) || columns.includes(key)) continue;
      columns.push(key);
    }
  }
  // Columns that say nothing for every row (false, null, empty) are left out.
  const shown = columns.filter((key) => rows.some(([, record]) => cell(record[key]) !== ''));
  const table = el('table', { class: 'sheet-table' }, [
    el('thead', {}, el('tr', {}, [el('th', { text: '' }), ...shown.map((key) => el('th', { text: humanize(key) }))])),
    el(
      'tbody',
      {},
      rows.map(([key, record]) =>
        el('tr', {}, [el('th', { scope: 'row', text: nameOf(key, record) }), ...shown.map((k) => el('td', { text: cell(record[k]) }))]),
      ),
    ),
  ]);
  return el('section', { class: 'sheet-block sheet-block--table' }, [el('h4', { text: title }), el('div', { class: 'sheet-table-wrap' }, table)]);
}

/**
 * One object as rows of scalars, then its nested parts: collections of flat
 * records (skills, weapons) as tables, lists of scalars inline, other objects
 * as titled blocks (titled by their `label` or `name` when they have one).
 */
function dataBlock(data, depth = 0) {
  const rows = el('dl', { class: 'sheet-rows' });
  const blocks = [];
  for (const [key, value] of entriesOf(data)) {
    if (isScalar(value) || isScalarList(value)) {
      if (isScalarList(value) && !value.length) continue;
      rows.append(el('dt', { text: humanize(key) }), el('dd', { text: isScalarList(value) ? cell(value) || '—' : scalar(value) }));
      continue;
    }
    const inner = entriesOf(value);
    if (!inner.length) continue;
    if (inner.every(([, v]) => isFlatRecord(v))) {
      blocks.push(recordTable(humanize(key), value));
      continue;
    }
    const label = Array.isArray(value) ? undefined : NAME_KEYS.map((k) => value[k]).find((v) => typeof v === 'string');
    const title = label ?? humanize(key);
    const rest = label === undefined ? value : Object.fromEntries(Object.entries(value).filter(([k]) => !NAME_KEYS.includes(k)));
    const body = depth < 3 ? dataBlock(rest, depth + 1) : el('pre', { text: JSON.stringify(rest, null, 1) });
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
