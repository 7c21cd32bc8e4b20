// Starting the real Python bridge for a test: a fresh data dir, a world, the
// server on 127.0.0.1. Only processes started here are ever signalled.

import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export function python() {
  const exe = process.env.VTT_PYTHON;
  if (!exe) throw new Error('Set VTT_PYTHON to the bridge virtualenv python (e.g. /work/main/.venv/bin/python)');
  return exe;
}

export async function makeDataDir() {
  return mkdtemp(join(tmpdir(), 'vtt-shim-'));
}

export async function createWorld(data, { name = 'Mesa de prueba', system = 'o3d10', locale = 'es' } = {}) {
  const { stdout } = await run(
    python(),
    ['-m', 'bridge', 'world', 'create', name, '--system', system, '--data', data, '--demo', '--locale', locale],
    { cwd: REPO },
  );
  const line = stdout.trim().split('\n').pop();
  return JSON.parse(line);
}

/** Starts `bridge serve`; resolves once it prints its listening line. */
export async function startServer(data, { port = 0, diceSeed = null, extraArgs = [] } = {}) {
  const args = ['-m', 'bridge', 'serve', '--host', '127.0.0.1', '--port', String(port), '--data', data, ...extraArgs];
  // Seeded dice (FOR TESTS ONLY): the same requests give the same rolls.
  if (diceSeed !== null) args.push('--dice-seed', String(diceSeed));
  const child = spawn(python(), args, {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-8000);
  });
  const lines = createInterface({ input: child.stdout });
  const listening = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 20 s:\n${stderr}`)), 20000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stderr}`));
    });
    lines.on('line', (line) => {
      try {
        const msg = JSON.parse(line);
        if (msg.event === 'listening') {
          clearTimeout(timer);
          resolve(msg);
        }
      } catch {
        /* not ours */
      }
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    child,
    port: listening.port,
    url: `http://127.0.0.1:${listening.port}`,
    stderr: () => stderr,
    /** SIGKILL (a crash) or SIGTERM (a clean stop); waits for the exit. */
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}

/** A data dir with one demo world and the server running on it (`diceSeed`: seeded dice). */
export async function startTable({ diceSeed = null, ...options } = {}) {
  const data = await makeDataDir();
  let world;
  let server;
  try {
    world = await createWorld(data, options);
    server = await startServer(data, { diceSeed });
  } catch (error) {
    await rm(data, { recursive: true, force: true });
    throw error;
  }
  return {
    data,
    world,
    server,
    async cleanup() {
      await server.stop('SIGKILL');
      await rm(data, { recursive: true, force: true });
    },
  };
}
