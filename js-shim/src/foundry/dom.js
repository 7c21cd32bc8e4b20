// @ts-check
// The few DOM operations the adapter does on elements Foundry renders (sheets,
// chat messages, the token HUD) and the connection badge. Kept apart so the
// adapter's logic runs in node with a fake.

/** @param {Document} doc */
export function createDom(doc) {
  return {
    /**
     * Puts `html` (one element with class `marker`) into `container`, replacing an earlier one.
     * @param {HTMLElement} container @param {string} html @param {string} marker
     * @param {InsertPosition} [where]
     * @returns {HTMLElement | null}
     */
    mount(container, html, marker, where = 'afterbegin') {
      container.querySelector(`.${marker}`)?.remove();
      container.insertAdjacentHTML(where, html);
      return container.querySelector(`.${marker}`);
    },
    /** @param {HTMLElement} root @param {string} selector */
    find(root, selector) {
      return /** @type {HTMLElement | null} */ (root.querySelector(selector));
    },
    /**
     * Calls `fn(dataset)` when an element matching `selector` inside `root` is clicked.
     * @param {HTMLElement} root @param {string} selector
     * @param {(data: Record<string, string | undefined>) => void} fn
     */
    onClick(root, selector, fn) {
      root.addEventListener('click', (event) => {
        const target = /** @type {HTMLElement | null} */ (event.target);
        const el = /** @type {HTMLButtonElement | null} */ (target?.closest?.(selector) ?? null);
        if (!el || !root.contains(el) || el.disabled) return;
        event.preventDefault();
        event.stopPropagation();
        fn({ ...el.dataset });
      });
    },
    /** Disables the buttons matching `selector` whose `data-action` is in `actions`. @param {HTMLElement} root @param {string} selector @param {string[]} actions */
    disable(root, selector, actions) {
      const used = new Set(actions);
      for (const el of Array.from(root.querySelectorAll(selector))) {
        const button = /** @type {HTMLButtonElement} */ (el);
        if (used.has(button.dataset.action ?? '')) button.disabled = true;
      }
    },
    /** Marks an element as wired; false when it already was. @param {HTMLElement} el */
    claim(el) {
      if (el.dataset.vttBridgeWired) return false;
      el.dataset.vttBridgeWired = '1';
      return true;
    },
    /** The connection badge. @param {string} state @param {string} text @param {boolean} show */
    badge(state, text, show) {
      let el = doc.getElementById('vtt-bridge-status');
      if (!show) {
        el?.remove();
        return;
      }
      if (!el) {
        el = doc.createElement('div');
        el.id = 'vtt-bridge-status';
        doc.body.append(el);
      }
      el.dataset.state = state;
      el.textContent = text;
    },
  };
}

/** @typedef {ReturnType<typeof createDom>} Dom */
