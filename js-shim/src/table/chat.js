// The chat log: each card's server-rendered html (the server escapes it), and
// its follow-up buttons wired to `card_action`.

import { askForm } from './ask.js';
import { clear, el } from './dom.js';
import { t } from './i18n.js';

const KEEP = 300;

export function createChat(root, { send }) {
  const cards = new Map(); // card_id -> card
  const list = el('ol', { class: 'chat-list', 'aria-live': 'polite' });
  const empty = el('p', { class: 'empty', text: t('emptyLog') });
  clear(root).append(empty, list);

  list.addEventListener('click', async (event) => {
    const button = event.target.closest('button.vtt-follow');
    if (!button || button.disabled || !list.contains(button)) return;
    const cardId = button.dataset.card;
    const action = button.dataset.action;
    const card = cards.get(cardId);
    const follow = card?.actions.find((a) => a.id === action);
    const item = button.closest('li');
    const fire = async (params) => {
      button.disabled = true;
      const ack = await send(cardId, action, params);
      if (ack.ok && follow?.once) return true;
      button.disabled = false;
      return ack.ok;
    };
    if (follow?.ask?.length) {
      const slot = item.querySelector('.chat-ask');
      clear(slot).append(
        askForm({
          title: follow.label,
          ask: follow.ask,
          onCancel: () => clear(slot),
          onSubmit: async ({ params }) => {
            if (await fire(params)) clear(slot);
          },
        }),
      );
      return;
    }
    await fire({});
  });

  return {
    add(card) {
      cards.set(card.card_id, card);
      empty.hidden = true;
      const item = el('li', {
        class: `chat-item chat-item--${card.visibility}`,
        'data-card': card.card_id,
        'data-seq': card.seq,
      });
      // The server escaped every value in card.html (bridge/render.py).
      item.insertAdjacentHTML('beforeend', card.html);
      for (const [i, follow] of card.actions.entries()) {
        if (follow.used) item.querySelectorAll('button.vtt-follow')[i]?.setAttribute('disabled', '');
      }
      item.append(el('div', { class: 'chat-ask' }));
      list.append(item);
      while (list.childElementCount > KEEP) {
        cards.delete(list.firstElementChild.dataset.card);
        list.firstElementChild.remove();
      }
      root.scrollTop = root.scrollHeight;
    },
    reset() {
      cards.clear();
      clear(list);
      empty.hidden = false;
    },
  };
}
