// A tiny listener registry: on(topic, fn) returns an unsubscribe function.

export function createEmitter() {
  const topics = new Map();
  return {
    on(topic, fn) {
      if (!topics.has(topic)) topics.set(topic, new Set());
      topics.get(topic).add(fn);
      return () => topics.get(topic)?.delete(fn);
    },
    emit(topic, value) {
      for (const fn of [...(topics.get(topic) ?? [])]) {
        try {
          fn(value);
        } catch (error) {
          // One adapter's bug must not stop the others from hearing the push.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    },
    clear() {
      topics.clear();
    },
  };
}
