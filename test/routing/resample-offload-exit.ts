// Run by tts-resample-offload.test.ts in a child process: one tts() call converted on the
// worker thread (resampleOffload: 0), then nothing: no router.close(). The process must exit
// by itself (the thread is unref()ed when idle). Prints whether the thread ran, and the bytes.
import { createRouter } from 'voxroute';
import { ResampleThread } from '../../src/audio/resample-thread.js';

let started = false;
const start = ResampleThread.prototype.start;
ResampleThread.prototype.start = function (this: ResampleThread) {
  started = true;
  return start.call(this);
};
const router = createRouter(
  {
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `${process.argv[2]}/v1`,
        tts: { voices: { agent: 'alloy' }, responseFormat: 'pcm', sampleRate: 24000 },
      },
    },
    // A child compiling the source with jiti on a loaded machine: no connect, first-chunk or idle
    // limit to miss (the default connectTimeoutMs of 2 s is one a loaded core can exceed).
    routes: {
      tts: {
        providers: ['a'],
        connectTimeoutMs: 60_000,
        firstChunkTimeoutMs: 120_000,
        idleTimeoutMs: 60_000,
      },
    },
  },
  { resampleOffload: 0 },
);
let bytes = 0;
for await (const chunk of router.tts({
  text: 'Your table is booked for eight.',
  voice: 'agent',
  format: { encoding: 'pcm_s16le', sampleRate: 16000 },
}))
  bytes += chunk.data.byteLength;
console.log(`threaded ${started}, ${bytes} bytes`);
