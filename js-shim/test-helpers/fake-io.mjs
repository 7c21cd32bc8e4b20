// A stand-in for socket.io-client's `io`, to drive the core without a server.

export function fakeIo({ answer }) {
  const sent = [];
  const handlers = new Map();
  const socket = {
    active: true,
    auth: null,
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, []);
      handlers.get(event).push(fn);
      return socket;
    },
    timeout(ms) {
      return {
        emitWithAck: (event, body) => {
          sent.push({ event, body, at: Date.now(), timeout: ms });
          const reply = answer(event, body, sent.length);
          if (reply === undefined) {
            return new Promise((_, reject) => setTimeout(() => reject(new Error('operation has timed out')), ms));
          }
          return Promise.resolve(reply);
        },
      };
    },
    close() {
      socket.active = false;
    },
    fire(event, value) {
      for (const fn of handlers.get(event) ?? []) fn(value);
    },
  };
  function io(url, options) {
    socket.url = url;
    socket.options = options;
    options.auth((body) => {
      socket.auth = body;
    });
    return socket;
  }
  return { io, socket, sent };
}

export const WELCOME = {
  protocol: 1,
  world: { id: 'w', name: 'W', system: 'o3d10', system_name: 'x', settings: {} },
  role: 'gm',
  user: 'gm',
  locale: 'en',
  seq: 0,
  actors: [],
};
