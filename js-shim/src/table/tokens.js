// The actors as tokens: initials, name, owner, status icons and numbers.

import { clear, el } from './dom.js';
import { locale, t } from './i18n.js';
import { statusIcon, statusLabel } from './statuses.js';

function initials(name) {
  const parts = String(name).trim().split(/\s+/).filter(Boolean);
  return (parts.length > 1 ? parts[0][0] + parts[1][0] : (parts[0] ?? '?').slice(0, 2)).toUpperCase();
}

export function statusBadges(actor) {
  return el(
    'ul',
    { class: 'token-statuses', 'aria-label': 'statuses' },
    actor.statuses.map((id) => {
      const label = statusLabel(id, actor.labels, locale());
      return el('li', { class: `status status--${id}`, title: label, 'data-status': id }, [
        el('span', { class: 'status-icon', 'aria-hidden': 'true', text: statusIcon(id) }),
        el('span', { class: 'status-label', text: label }),
      ]);
    }),
  );
}

function numbers(actor) {
  const entries = Object.entries(actor.numbers ?? {});
  if (!entries.length) return null;
  return el(
    'span',
    { class: 'token-numbers' },
    entries.map(([key, value]) =>
      el('span', { class: 'token-number', 'data-number': key }, [
        el('span', { class: 'token-number-key', text: key.replace(/[_.]/g, ' ') }),
        el('b', { text: value }),
      ]),
    ),
  );
}

function token(actor, { selected, user, onSelect }) {
  const owner = actor.owner === null ? t('nobody') : actor.owner;
  const mine = actor.owner !== null && actor.owner === user;
  const node = el(
    'button',
    {
      type: 'button',
      class: `token${selected ? ' token--selected' : ''}${mine ? ' token--mine' : ''}${actor.statuses.includes('dead') ? ' token--dead' : ''}`,
      'data-actor': actor.id,
      'aria-pressed': selected ? 'true' : 'false',
      on: { click: () => onSelect(actor.id) },
    },
    [
      el('span', { class: 'token-face', 'aria-hidden': 'true', text: initials(actor.name) }),
      el('span', { class: 'token-body' }, [
        el('span', { class: 'token-name', text: actor.name }),
        el('span', { class: 'token-owner', text: mine ? `${owner} · ${t('yours')}` : owner }),
        statusBadges(actor),
        numbers(actor),
      ]),
    ],
  );
  return node;
}

export function renderTokens(root, actors, options) {
  clear(root);
  for (const actor of actors) root.append(token(actor, { ...options, selected: actor.id === options.selected }));
}

export function flashToken(root, actorId) {
  const node = root.querySelector(`[data-actor="${CSS.escape(actorId)}"]`);
  if (!node) return;
  node.classList.remove('token--flash');
  void node.offsetWidth;
  node.classList.add('token--flash');
}
