// What this client has seen of the world's event log, so a reconnect asks for
// exactly what it missed and a push is never delivered twice.
//
// The server sends every push of one event (cards, token statuses, actor
// updates, all with the event's `seq`) in a burst, in seq order, on one
// ordered connection. So a seq is *complete* once a push of a later seq has
// arrived, or once the ack of our own new event has (the server broadcasts
// before it acks). `resumeFrom()` is the last complete seq: a connection that
// dropped in the middle of a burst gets that whole burst again, and the keys
// of what was already delivered filter the repeats. After a backlog the
// server's `synced` push says everything up to the world's seq has arrived.

export function pushKey(kind, push) {
  switch (kind) {
    case 'card':
      return `${push.seq}:card:${push.card_id}`;
    case 'status':
      return `${push.seq}:status:${push.actor}`;
    case 'actor':
      return `${push.seq}:actor:${push.actor?.id ?? push.removed}`;
    case 'card_update':
      return `${push.seq}:card_update:${push.card_id}`;
    case 'combat':
      return `${push.seq}:combat`;
    default:
      return `${push.seq}:${kind}`;
  }
}

export function createSeqTracker(initial = null) {
  let complete = initial; // every push with seq <= complete was delivered
  let delivered = initial ?? 0; // highest seq of a push delivered (or of our own ack)
  let world = null; // the world's seq in the current connection's welcome
  let keys = new Set(); // keys delivered for seqs above `complete`

  function confirm(seq) {
    if (complete !== null && seq <= complete) return;
    complete = seq;
    keys = new Set([...keys].filter((key) => Number.parseInt(key, 10) > seq));
  }

  return {
    /** The `last_seq` to send when (re)connecting: null means "no backlog". */
    resumeFrom() {
      return complete;
    },
    highest() {
      return Math.max(delivered, world ?? 0);
    },
    /** The welcome says the world stands at `seq`; with no backlog asked, all of it is complete. */
    welcome(seq, askedBacklog) {
      world = seq;
      if (!askedBacklog) confirm(seq);
    },
    /** The `synced` push: the backlog is over, every push up to `seq` has arrived. */
    synced(seq) {
      if (!Number.isSafeInteger(seq)) return;
      if (seq > delivered) delivered = seq;
      confirm(seq);
    },
    /** A new (not duplicate) event of ours was acked: its burst reached us before the ack. */
    acked(seq) {
      if (seq > delivered) delivered = seq;
      confirm(seq);
    },
    /** Returns true when the push is new and should be delivered. */
    accept(kind, push) {
      const seq = push.seq;
      if (!Number.isSafeInteger(seq)) return true;
      if (complete !== null && seq <= complete) return false;
      const key = pushKey(kind, push);
      if (keys.has(key)) return false;
      if (seq > delivered) {
        // A later seq closes the earlier burst.
        if (delivered > 0 || complete !== null) confirm(delivered);
        delivered = seq;
      }
      keys.add(key);
      return true;
    },
  };
}
