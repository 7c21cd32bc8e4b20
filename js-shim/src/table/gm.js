// The GM panel: add or remove canonical statuses on the selected actor.

import { clear, el } from './dom.js';
import { locale, t } from './i18n.js';
import { STATUS_IDS, statusIcon, statusLabel } from './statuses.js';

export function renderGmPanel(root, { actor, role, setStatus }) {
  clear(root);
  root.hidden = role !== 'gm' || !actor;
  if (root.hidden) return;
  const grid = el('div', { class: 'gm-statuses' });
  for (const id of STATUS_IDS) {
    const on = actor.statuses.includes(id);
    const label = statusLabel(id, actor.labels, locale());
    grid.append(
      el(
        'button',
        {
          type: 'button',
          class: `gm-status${on ? ' gm-status--on' : ''}`,
          'data-status': id,
          'aria-pressed': on ? 'true' : 'false',
          title: id,
          on: {
            click: async (event) => {
              const button = event.currentTarget;
              button.disabled = true;
              await setStatus(actor.id, on ? { remove: [id] } : { add: [id] });
              button.disabled = false; // (the push has usually re-rendered the panel by now)
            },
          },
        },
        [el('span', { 'aria-hidden': 'true', text: statusIcon(id) }), el('span', { text: label })],
      ),
    );
  }
  root.append(el('h3', {}, [t('statuses'), ' · ', el('span', { class: 'gm-actor', text: actor.name })]), grid);
}
