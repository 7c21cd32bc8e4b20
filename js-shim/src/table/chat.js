// The chat log: each card's server-rendered html (the server escapes it), and
// its follow-up buttons wired to `card_action`. Cards are keyed by card id, so
// a card replayed after a reconnection or a reload replaces itself.

import { askForm } from './ask.js';
import { clear, el } from './dom.js';
import { t } from './i18n.js';

const KEEP = 300;

function followButtons(item, actionId) {
  return [...item.querySelectorAll('button.vtt-follow')].filter((b) => b.dataset.action === actionId);
}

export function createChat(root, { send }) {
  const cards = new Map(); // card_id -> card
  const list = el('ol', { class: 'chat-list', 'aria-live': 'polite' });
  const empty = el('p', { class: 'empty', text: t('emptyLog') });
  clear(root).append(empty, list);

  const itemOf = (cardId) => [...list.children].find((li) => li.dataset.card === cardId) ?? null;

  function markUsed(cardId, used) {
    const card = cards.get(cardId);
    if (!card) return false;
    for (const follow of card.actions) if (used.includes(follow.id)) follow.used = true;
    const item = itemOf(cardId);
    for (const id of used) for (const button of item ? followButtons(item, id) : []) button.disabled = true;
    return true;
  }

  /** An undo released these buttons: they work again. */
  function markReleased(cardId, released) {
    const card = cards.get(cardId);
    if (!card) return false;
    for (const follow of card.actions) if (released.includes(follow.id)) follow.used = false;
    const item = itemOf(cardId);
    for (const id of released) for (const button of item ? followButtons(item, id) : []) button.disabled = false;
    return true;
  }

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
      if ((ack.ok && follow?.once) || ack.error?.code === 'follow_up_used') {
        markUsed(cardId, [action]);
        return ack.ok;
      }
      button.disabled = follow?.used === true;
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
      slot.querySelector('select, input, button')?.focus();
      return;
    }
    await fire({});
  });

  function render(card) {
    const item = el('li', {
      class: `chat-item chat-item--${card.visibility}`,
      'data-card': card.card_id,
      'data-seq': card.seq,
    });
    // The server escaped every value in card.html (bridge/render.py).
    item.insertAdjacentHTML('beforeend', card.html);
    for (const follow of card.actions) {
      if (follow.used) for (const button of followButtons(item, follow.id)) button.disabled = true;
    }
    item.append(el('div', { class: 'chat-ask' }));
    return item;
  }

  return {
    /** Adds a card, or replaces the one with its id (a replay). */
    add(card) {
      const known = cards.get(card.card_id);
      if (known) {
        // A replay may lag behind a card_update we already applied: keep "used".
        for (const follow of card.actions) {
          if (known.actions.find((a) => a.id === follow.id)?.used) follow.used = true;
        }
        cards.set(card.card_id, card);
        const old = itemOf(card.card_id);
        if (old && !old.querySelector('.chat-ask form')) old.replaceWith(render(card));
        return;
      }
      cards.set(card.card_id, card);
      empty.hidden = true;
      list.append(render(card));
      while (list.childElementCount > KEEP) {
        cards.delete(list.firstElementChild.dataset.card);
        list.firstElementChild.remove();
      }
      root.scrollTop = root.scrollHeight;
    },
    /** A `card_update` push: follow-ups that were used, disabled; those an undo released, enabled. */
    update(push) {
      const used = markUsed(push.card_id, push.used ?? []);
      const released = markReleased(push.card_id, push.released ?? []);
      return used || released;
    },
    /** The newest `count` cards, oldest first (for sessionStorage). */
    snapshot(count = KEEP) {
      return [...cards.values()].slice(-count);
    },
    reset() {
      cards.clear();
      clear(list);
      empty.hidden = false;
    },
  };
}
