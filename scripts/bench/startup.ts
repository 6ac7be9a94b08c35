/**
 * Language server start-up: spawn `node dist/server.js --stdio`, send `initialize`, time until its answer; median of N,
 * as a ratio to the floor of spawning `node -e 0` to its exit in the same run. Parsers load on the first document of
 * their language, so this is what an editor waits before the server is usable.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { BenchRow } from '../bench';
import { median } from '../bench';

const SERVER = resolve(__dirname, '../../dist/server.js');
const RUNS = Number(process.env.DYNALINT_BENCH_STARTUP_RUNS ?? 11);

function initializeMs(): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const p = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    p.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!/"id":1\b/.test(out)) return;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      p.kill();
      done(ms);
    });
    p.on('error', fail);
  });
}

function nodeFloorMs(): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
      .on('close', () => done(Number(process.hrtime.bigint() - t0) / 1e6))
      .on('error', fail);
  });
}

export async function run(): Promise<BenchRow[]> {
  const ours: number[] = [];
  const floor: number[] = [];
  await initializeMs(); // warm the file cache
  for (let i = 0; i < RUNS; i++) {
    // Interleaved: the machine's load varies between samples.
    ours.push(await initializeMs());
    floor.push(await nodeFloorMs());
  }
  const [o, f] = [median(ours), median(floor)];
  return [
    {
      area: 'startup',
      name: 'spawn dist/server.js -> initialize answered',
      ours: `${o.toFixed(0)} ms`,
      baseline: `node -e 0 ${f.toFixed(0)} ms`,
      ratio: o / f,
      note: `median of ${RUNS}; aim <= 200 ms; was 331 ms before parsers loaded lazily`,
    },
  ];
}
