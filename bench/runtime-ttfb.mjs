// Loopback TTFB of the HTTP clients a runtime offers: its global fetch, and undici's
// Dispatcher.dispatch (the default wire on Node) when the loaded undici has a working one.
// Runs in Node, Bun or Deno:
//   node bench/runtime-ttfb.mjs | npx -y bun@1 bench/runtime-ttfb.mjs | npx -y deno@2 run -A bench/runtime-ttfb.mjs
// A node:http server in the same process answers each POST with headers then one 3200-byte
// chunk; TTFB = request start to the first body byte. Interleaved, keep-alive, 300 requests
// each after 50 of warmup; prints the median and p90 of each client and their ratio.
import { createServer } from 'node:http';

const N = 300;
const WARMUP = 50;
const chunk = new Uint8Array(3200);
const server = createServer({ noDelay: true }, (req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    res.end(chunk);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/tts`;
const runtime = globalThis.Bun
  ? `bun ${Bun.version}`
  : globalThis.Deno
    ? `deno ${Deno.version.deno}`
    : `node ${process.version}`;

async function viaFetch() {
  const t0 = performance.now();
  const response = await fetch(url, { method: 'POST', body: '{"text":"hi"}' });
  const reader = response.body.getReader();
  await reader.read();
  const ttfb = performance.now() - t0;
  while (!(await reader.read()).done) {}
  return ttfb;
}

const undici = await import('undici');
const agent = new undici.Agent({ keepAliveTimeout: 30_000, pipelining: 1 });
const hasDispatch = typeof agent.dispatch === 'function';
function viaDispatch() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ttfb;
    agent.dispatch(
      { origin: new URL(url).origin, path: '/tts', method: 'POST', body: '{"text":"hi"}' },
      {
        onRequestStart() {},
        onResponseStart() {},
        onResponseData() {
          ttfb ??= performance.now() - t0;
        },
        onResponseEnd() {
          resolve(ttfb);
        },
        onResponseError(_c, error) {
          reject(error);
        },
      },
    );
  });
}

const clients = { fetch: viaFetch, ...(hasDispatch ? { 'undici dispatch': viaDispatch } : {}) };
const samples = Object.fromEntries(Object.keys(clients).map((k) => [k, []]));
for (let i = 0; i < WARMUP + N; i++) {
  for (const [name, run] of Object.entries(clients)) {
    const ms = await run();
    if (i >= WARMUP) samples[name].push(ms);
  }
}
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))];
console.log(`${runtime}: loopback TTFB, ${N} requests each (ms)`);
for (const [name, xs] of Object.entries(samples)) {
  console.log(`  ${name.padEnd(16)} p50 ${q(xs, 0.5).toFixed(3)}  p90 ${q(xs, 0.9).toFixed(3)}`);
}
if (hasDispatch) {
  console.log(
    `  fetch / undici dispatch p50 ratio: ${(q(samples.fetch, 0.5) / q(samples['undici dispatch'], 0.5)).toFixed(2)}`,
  );
} else {
  console.log("  undici dispatch: not available (this runtime's undici Agent has no dispatch)");
}
await agent.destroy?.();
server.close();
process.exit(0);
