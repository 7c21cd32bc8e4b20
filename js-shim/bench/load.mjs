// Load generator for `vtt-bridge bench`: N socket.io-client connections (msgpack parser,
// websocket transport) sending `roll` requests in a closed loop for a fixed time, or
// holding idle connections. Prints one JSON line of figures, including its own CPU use
// so the orchestrator can check the load generator was not the bottleneck.
import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { randomUUID } from 'node:crypto';

const options = JSON.parse(process.argv[2]);
const { url, tokens, connections, seconds, idle, payload, offset = 0 } = options;

function connect(index) {
  const token = tokens[index % tokens.length];
  const socket = io(`${url}vtt`, {
    transports: ['websocket'],
    parser,
    reconnection: false,
    auth: { token, user: `bench-${offset + index}`, name: 'bench', protocol: 1 },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('welcome timeout')), 30000);
    socket.once('welcome', () => { clearTimeout(timer); resolve(socket); });
    socket.once('connect_error', (error) => { clearTimeout(timer); reject(error); });
  });
}

const sockets = [];
for (let start = 0; start < connections; start += 100) {
  const batch = [];
  for (let i = start; i < Math.min(connections, start + 100); i += 1) batch.push(connect(i));
  sockets.push(...(await Promise.all(batch)));
}

let pushes = 0;
for (const socket of sockets) socket.on('chat_card', () => { pushes += 1; });

const cpuStart = process.cpuUsage();
const started = performance.now();
const latencies = [];
let errors = 0;
if (idle) {
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
} else {
  const deadline = started + seconds * 1000;
  await Promise.all(sockets.map(async (socket) => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        const ack = await socket.timeout(10000).emitWithAck('roll', { ...payload, id: randomUUID().replaceAll('-', '') });
        if (!ack || ack.ok !== true) errors += 1;
      } catch {
        errors += 1;
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
  requests: latencies.length,
  errors,
  pushes,
  elapsed,
  p50_ms: pick(0.5),
  p99_ms: pick(0.99),
  latencies_ms: latencies.length > 20000 ? undefined : latencies,
  cpu_seconds: (cpu.user + cpu.system) / 1e6,
});
for (const socket of sockets) socket.disconnect();
// Exit only once the whole line is written: a pipe takes 64 kB at a time.
process.stdout.write(`${line}\n`, () => process.exit(0));
