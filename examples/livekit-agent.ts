/**
 * voxroute as a LiveKit agents plugin: STT, LLM and TTS of an AgentSession routed by voxroute.
 *
 *   node scripts/run-ts.mjs examples/livekit-agent.ts
 *
 * runs one voice turn through the three plugin classes, driven directly as AgentSession drives
 * them (no LiveKit server): audio that never ends goes to voxroute.STT, whose end-of-utterance
 * rule cuts the utterance; the transcript goes to voxroute.LLM; the reply's text streams into
 * voxroute.TTS. The providers are the testing kit's OpenAI-compatible mocks on loopback, the
 * first answering HTTP 503, so each stage falls back.
 *
 * In a real agent, `agent` below is the whole integration: build the router from your config
 * and hand the three plugins to AgentSession; run it with the agents CLI
 * (`cli.runApp(new ServerOptions({ agent: <this file, compiled> }))` with LIVEKIT_URL,
 * LIVEKIT_API_KEY and LIVEKIT_API_SECRET set).
 */
import { ReadableStream } from 'node:stream/web';
import { defineAgent, initializeLogger, type JobContext, llm, stt, voice } from '@livekit/agents';
import { AudioFrame } from '@livekit/rtc-node';
import { createRouter, loadConfig, type Router, silence } from 'voxroute';
import * as voxroute from 'voxroute/livekit';
import { createOpenAiCompatibleMock, startMockServer, syntheticVoiceBytes } from 'voxroute/testing';

/** The production wiring: an AgentSession whose STT, LLM and TTS are voxroute routes. */
export default defineAgent({
  entry: async (ctx: JobContext) => {
    const router = createRouter(await loadConfig(process.env.VOXROUTE_CONFIG ?? 'voxroute.config.ts'));
    ctx.addShutdownCallback(() => router.close());
    await ctx.connect();
    const session = new voice.AgentSession({
      stt: new voxroute.STT(router),
      llm: new voxroute.LLM(router, { model: 'fast' }),
      tts: new voxroute.TTS(router, { voice: 'agent', sampleRate: 24000 }),
    });
    await session.start({ agent: new voice.Agent({ instructions: 'You book tables.' }), room: ctx.room });
  },
});

/** One voice turn through the plugins, as AgentSession runs it. */
async function voiceTurn(router: Router): Promise<void> {
  // STT: 1.5 s of speech then silence, 10 ms frames at 16 kHz, and the stream is never ended.
  const pcm = Buffer.concat([
    syntheticVoiceBytes({ durationMs: 1500, sampleRate: 16_000 }),
    silence({ encoding: 'pcm_s16le', sampleRate: 16_000 }, 1000),
  ]);
  const frames: AudioFrame[] = [];
  for (let i = 0; i < pcm.byteLength; i += 320) {
    frames.push(
      new AudioFrame(
        new Int16Array(pcm.buffer.slice(pcm.byteOffset + i, pcm.byteOffset + i + 320)),
        16_000,
        1,
        160,
      ),
    );
  }
  const listening = new voxroute.STT(router).stream();
  listening.updateInputStream(
    new ReadableStream<AudioFrame>({
      start(controller) {
        for (const frame of frames) controller.enqueue(frame);
      },
    }),
  );
  let transcript = '';
  for await (const event of listening) {
    if (event.type === stt.SpeechEventType.END_OF_SPEECH)
      console.log('stt: end of utterance (the plugin rule)');
    if (event.type === stt.SpeechEventType.FINAL_TRANSCRIPT) {
      transcript = event.alternatives?.[0].text ?? '';
      break;
    }
  }
  listening.close();
  console.log(`stt: "${transcript}"`);

  // LLM: the chat context with the user's turn; its text deltas feed the TTS as they come.
  const chatCtx = llm.ChatContext.empty();
  chatCtx.addMessage({ role: 'system', content: 'You book tables.' });
  chatCtx.addMessage({ role: 'user', content: transcript });
  const reply = new voxroute.LLM(router, { model: 'fast' }).chat({ chatCtx });
  let said = '';
  const text = new ReadableStream<string>({
    async start(controller) {
      for await (const chunk of reply) {
        if (chunk.delta?.content) {
          said += chunk.delta.content;
          controller.enqueue(chunk.delta.content);
        }
      }
      controller.close();
    },
  });

  // TTS: streaming text in through updateInputStream, 24 kHz mono frames out.
  const speaking = new voxroute.TTS(router, { voice: 'agent', sampleRate: 24_000 }).stream();
  speaking.updateInputStream(text);
  let samples = 0;
  for await (const audio of speaking) {
    if (typeof audio === 'symbol') break; // END_OF_STREAM: the segment is complete
    samples += audio.frame.samplesPerChannel;
  }
  console.log(`llm: "${said}"`);
  console.log(`tts: ${Math.round(samples / 24)} ms of 24 kHz audio`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  initializeLogger({ pretty: false, level: 'warn' });
  const failing = await startMockServer({
    provider: createOpenAiCompatibleMock({ script: { failTimes: 1000, failStatus: 503 } }),
  });
  const serving = await startMockServer({
    provider: createOpenAiCompatibleMock({
      transcript: 'A table for two at eight.',
      chat: 'Booked: two people at eight.',
    }),
  });
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    chat: { models: { fast: 'llama-3.1-8b' } },
    tts: { voices: { agent: 'af_heart' } },
    stt: { model: 'whisper-large-v3' },
  });
  const route = { providers: ['failing', 'serving'], strategy: 'priority' as const };
  const router = createRouter({
    providers: { failing: provider(failing.url), serving: provider(serving.url) },
    routes: { stt: route, chat: route, tts: route },
  });
  router.on('fallback', (e) =>
    console.log(`  [voxroute] ${e.capability}: ${e.provider} failed, falling back to ${e.next}`),
  );
  try {
    await voiceTurn(router);
  } finally {
    await router.close();
    await Promise.all([failing.close(), serving.close()]);
  }
}
