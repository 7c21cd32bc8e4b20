// The parts of Roll20's page the userscript touches, in one place: the chat
// box (textarea + send button), the speaking-as select and the message list.

export const SELECTORS = {
  input: '#textchat-input textarea',
  send: '#textchat-input .btn',
  speakingAs: '#speakingas',
  messages: '#textchat .content',
  message: '.message',
};

export function createChatBox(doc = document, selectors = SELECTORS) {
  const $ = (sel) => doc.querySelector(sel);
  let posting = false;

  function speakingOption(name) {
    const select = $(selectors.speakingAs);
    if (!select || !name) return null;
    const want = String(name).trim().toLowerCase();
    return [...select.options].find((o) => o.textContent.trim().toLowerCase() === want) ?? null;
  }

  return {
    ready: () => Boolean($(selectors.input) && $(selectors.send) && $(selectors.messages)),
    get posting() {
      return posting;
    },
    input: () => $(selectors.input),
    sendButton: () => $(selectors.send),
    messages: () => $(selectors.messages),
    /** The Roll20 player behind this browser: the `player|<id>` speaking-as option. */
    player() {
      const option = $(`${selectors.speakingAs} option[value^="player|"]`);
      return option ? { id: option.value.slice('player|'.length), name: option.textContent.trim() } : null;
    },
    canSpeakAs: (name) => Boolean(speakingOption(name)),
    /**
     * Types `text` into the chat box and presses send, speaking as `speakAs`
     * when the select offers it; the draft the user was typing and the
     * select's choice are put back afterwards. Returns false without a chat box.
     */
    post(text, { speakAs = null } = {}) {
      const input = $(selectors.input);
      const button = $(selectors.send);
      if (!input || !button) return false;
      const select = $(selectors.speakingAs);
      const draft = input.value;
      const previous = select ? select.value : null;
      const option = speakingOption(speakAs);
      posting = true;
      try {
        if (select && option && select.value !== option.value) {
          select.value = option.value;
          select.dispatchEvent(new Event('change', { bubbles: true }));
        }
        input.value = text;
        button.click();
      } finally {
        input.value = draft;
        if (select && previous !== null && select.value !== previous) {
          select.value = previous;
          select.dispatchEvent(new Event('change', { bubbles: true }));
        }
        posting = false;
      }
      return true;
    },
    /** A line only this browser sees, styled like Roll20's system messages. */
    notice(text, kind = 'info') {
      const list = $(selectors.messages);
      if (!list) return null;
      const item = doc.createElement('div');
      item.className = `message system vtt-notice vtt-notice--${kind}`;
      const lines = Array.isArray(text) ? text : [text];
      lines.forEach((line, i) => {
        if (i) item.append(doc.createElement('br'));
        item.append(doc.createTextNode(`${i ? '' : 'vtt-bridge: '}${line}`));
      });
      list.append(item);
      list.scrollTop = list.scrollHeight;
      return item;
    },
  };
}
