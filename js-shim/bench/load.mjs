// Load generator for `vtt-bridge bench`: N socket.io-client connections (msgpack parser,
// websocket transport) running a scenario's operation in a closed loop for a fixed time,
// or holding idle connections, or (capture mode) running `captureOps` operations in a row
// and recording each request's event, ack and the pushes it caused, operation by operation. Prints one JSON line of figures, including its own
// CPU use so the orchestrator can check the load generator was not the bottleneck.
//
// An operation: the scenario's request; then, when `follow` is set, every follow-up of
// the ack's cards whose id starts with it (a card_action each, e.g. the damage of each
// hit); then, when `undo` is set, an undo of every accepted request, newest first, so
// the next operation finds the same table. This generator holds the connections
// `indices` lists (all of 0..connections-1 without it); connection i uses token i % tokens and is
// member floor(i / tokens) of its world; with `active` set, only that many members of
// each world run operations, the others watch (they receive every push).
import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { randomUUID } from 'node:crypto';

const options = JSON.parse(process.argv[2]);
const {
  url, tokens, connections, seconds, idle, script, capture = false, captureOps = 1, indices = null, barrier = false,
  warmup = 0,
} = options;

// With `barrier`, the orchestrator starts every load generator's window at once: each one
// connects, says {"ready": true} and waits for a line on stdin; after its result line it
// keeps its connections until stdin closes. So the servers' CPU is sampled over the
// measured window only (no welcomes, no disconnects), and no loader's window overlaps
// another's connection storm.
const stdinLines = [];
let stdinWaiter = null;
let stdinClosed = false;
if (barrier) {
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      stdinLines.push(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      if (stdinWaiter) { stdinWaiter(); stdinWaiter = null; }
    }
  });
  process.stdin.on('end', () => { stdinClosed = true; if (stdinWaiter) { stdinWaiter(); stdinWaiter = null; } });
}
function nextStdin() {
  if (stdinLines.length || stdinClosed) return Promise.resolve(stdinLines.shift());
  return new Promise((resolve) => { stdinWaiter = () => resolve(stdinLines.shift()); });
}
function stdinEnd() {
  if (stdinClosed) return Promise.resolve();
  return new Promise((resolve) => { process.stdin.on('end', resolve); process.stdin.resume(); });
}

function connect(index) {
  const token = tokens[index % tokens.length];
  const socket = io(`${url}vtt`, {
    transports: ['websocket'],
    parser,
    reconnection: false,
    auth: { token, user: `bench-${index}`, name: 'bench', protocol: 1 },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { socket.disconnect(); reject(new Error('welcome timeout')); }, 120000);
    socket.once('welcome', () => { clearTimeout(timer); socket.benchIndex = index; resolve(socket); });
    socket.once('connect_error', (error) => { clearTimeout(timer); socket.disconnect(); reject(error); });
  });
}

// Connections open 100 at a time; one that is refused or not welcomed within the
// timeout is counted (connect_errors), not fatal: the row then shows fewer connections.
const sockets = [];
let connectErrors = 0;
let connectError = null;
const connectStarted = performance.now();
for (let start = 0; start < connections; start += 100) {
  const batch = [];
  for (let i = start; i < Math.min(connections, start + 100); i += 1) batch.push(connect(indices ? indices[i] : i));
  for (const settled of await Promise.allSettled(batch)) {
    if (settled.status === 'fulfilled') {
      sockets.push(settled.value);
    } else {
      connectErrors += 1;
      connectError ??= String(settled.reason);
    }
  }
}
const connectSeconds = (performance.now() - connectStarted) / 1000;

let pushes = 0;
let requests = 0;
let errors = 0;
let warmupRequests = 0;
const firstError = [];
const captured = [];
let capturing = null; // the operation being recorded: [[event, ack, pushes], ...]
for (const socket of sockets) {
  socket.onAny((event, body) => {
    pushes += 1;
    if (capture && socket.recording) socket.recording.push([event, body]);
  });
}

async function call(socket, event, body) {
  socket.recording = [];
  const ack = await socket.timeout(10000).emitWithAck(event, { ...body, id: randomUUID().replaceAll('-', '') });
  requests += 1;
  if (capturing !== null) capturing.push([event, ack, socket.recording]);
  socket.recording = null;
  if (!ack || ack.ok !== true) {
    errors += 1;
    if (firstError.length === 0) firstError.push({ event, body, ack });
    return null;
  }
  return ack;
}

async function operation(socket) {
  const first = await call(socket, script.event, script.payload);
  if (first === null) return;
  const seqs = [first.seq];
  if (script.follow) {
    for (const card of first.cards) {
      for (const action of card.actions) {
        if (!action.id.startsWith(script.follow)) continue;
        const ack = await call(socket, 'card_action', { card: card.card_id, action: action.id, params: {} });
        if (ack !== null) seqs.push(ack.seq);
      }
    }
  }
  if (script.undo) {
    for (const seq of seqs.reverse()) await call(socket, 'undo', { seq });
  }
}

// With `warmup` (seconds, barrier mode), the scenario first runs that long unmeasured,
// before this generator says it is ready: V8 compiles the generator's code meanwhile
// (~0.5 s of CPU on its own threads, in a 2 s window a fixed cost that weighed more
// beside the slower server), and the server measured next has just served, whichever
// server the window before it measured (docs/performance.md, "Fifteenth pass"). Only
// the window's requests and pushes are counted; the warm-up's errors are kept.
function activeMember(socket) {
  return script.active === undefined || Math.floor(socket.benchIndex / tokens.length) < script.active;
}
async function warmUp() {
  const until = performance.now() + warmup * 1000;
  await Promise.all(sockets.filter(activeMember).map(async (socket) => {
    while (performance.now() < until) {
      try {
        await operation(socket);
      } catch (error) {
        errors += 1;
        if (firstError.length === 0) firstError.push({ error: String(error), warmup: true });
      }
    }
  }));
}
if (barrier) {
  if (warmup > 0 && !idle && !capture) await warmUp();
  process.stdout.write(`${JSON.stringify({ ready: true, connections: sockets.length })}\n`);
  await nextStdin();
  warmupRequests = requests;
  requests = 0;
  pushes = 0;
}
const cpuStart = process.cpuUsage();
const started = performance.now();
const latencies = [];
if (idle) {
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
} else if (capture) {
  // Record `captureOps` whole operations in a row, as they come (a burst that missed as
  // well as one that hit three times): the floor walks through them, so its operations
  // take as many requests, on average, as the bridge's do.
  for (let done = 0; done < captureOps && sockets.length; done += 1) {
    capturing = [];
    await operation(sockets[0]);
    captured.push(capturing);
    capturing = null;
  }
} else {
  const deadline = started + seconds * 1000;
  await Promise.all(sockets.map(async (socket) => {
    if (!activeMember(socket)) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));
      return;
    }
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        await operation(socket);
      } catch (error) {
        errors += 1;
        if (firstError.length === 0) firstError.push({ error: String(error) });
      }
      latencies.push(performance.now() - sent);
    }
  }));
}
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStart);
latencies.sort((a, b) => a - b);
const pick = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : 0);
const line = JSON.stringify({
  connections: sockets.length,
  connect_errors: connectErrors,
  connect_error: connectError,
  connect_seconds: connectSeconds,
  operations: latencies.length,
  requests,
  warmup_requests: warmupRequests,
  errors,
  first_error: firstError[0] ?? null,
  pushes,
  elapsed,
  p50_ms: pick(0.5),
  p99_ms: pick(0.99),
  latencies_ms: latencies.length > 20000 ? undefined : latencies,
  cpu_seconds: (cpu.user + cpu.system) / 1e6,
  captured: capture ? { operations: captured } : undefined,
});
if (barrier) {
  await new Promise((resolve) => process.stdout.write(`${line}\n`, resolve));
  await stdinEnd();
  for (const socket of sockets) socket.disconnect();
  process.exit(0);
} else {
  for (const socket of sockets) socket.disconnect();
  // Exit only once the whole line is written: a pipe takes 64 kB at a time.
  process.stdout.write(`${line}\n`, () => process.exit(0));
}
