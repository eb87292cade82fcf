/**
 * One voice turn through a voxroute router: real speech from a WAV file -> `stt()` ->
 * `chat()` -> `tts()`. Used by the demo (examples/demo.ts) and by the end-to-end test.
 */
import { createReadStream } from 'node:fs';
import type { AudioFormat, ChatMessage, RouteResult, Router } from 'voxroute';
import { readWav } from 'voxroute';

/** What one stage of the turn did. */
export interface StageReport {
  stage: 'stt' | 'chat' | 'tts';
  result: RouteResult;
}

/** The outcome of {@link runVoiceTurn}. */
export interface VoiceTurn {
  /** Final transcripts joined with spaces. */
  transcript: string;
  /** The chat reply's text. */
  reply: string;
  /** The reply's audio, in `format`. */
  audio: Uint8Array;
  format: AudioFormat;
  stages: StageReport[];
}

/** Options of {@link runVoiceTurn}. */
export interface VoiceTurnOptions {
  /** Logical voice for TTS. Default: `'agent'`. */
  voice?: string;
  /** Logical chat model. Default: `'fast'`. */
  model?: string;
  /** Format of the reply audio. Default: PCM s16le 24 000 Hz mono. */
  format?: AudioFormat;
  /** Bytes per audio chunk fed to stt(): 20 ms of the file's format by default. */
  chunkBytes?: number;
  signal?: AbortSignal;
}

const SYSTEM_PROMPT = 'You are a helpful voice agent. Answer in one or two short sentences.';

/**
 * Runs one turn. Throws what the router throws (AllProvidersFailedError, MidStreamError, ...).
 */
export async function runVoiceTurn(
  router: Router,
  wavPath: string,
  options: VoiceTurnOptions = {},
): Promise<VoiceTurn> {
  const signal = options.signal;
  const wav = readWav(createReadStream(wavPath));
  const inputFormat = await wav.format;
  const chunkBytes = options.chunkBytes ?? Math.round(inputFormat.sampleRate * 0.02) * 2;
  const stages: StageReport[] = [];

  const stt = router.stt({
    audio: rechunk(wav.data, chunkBytes),
    format: inputFormat,
    ...(signal ? { signal } : {}),
  });
  const finals: string[] = [];
  for await (const event of stt) if (event.type === 'final' && event.text) finals.push(event.text);
  stages.push({ stage: 'stt', result: await stt.result });
  const transcript = finals.join(' ').trim();

  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: transcript || '(silence)' },
  ];
  const chat = router.chat({ messages, model: options.model ?? 'fast', ...(signal ? { signal } : {}) });
  let reply = '';
  for await (const event of chat) if (event.type === 'text-delta') reply += event.text;
  stages.push({ stage: 'chat', result: await chat.result });

  const format: AudioFormat = options.format ?? { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
  const tts = router.tts({
    text: reply,
    voice: options.voice ?? 'agent',
    format,
    ...(signal ? { signal } : {}),
  });
  const parts: Uint8Array[] = [];
  for await (const chunk of tts) parts.push(chunk.data);
  stages.push({ stage: 'tts', result: await tts.result });
  return { transcript, reply, audio: Buffer.concat(parts), format, stages };
}

/** Re-cuts a byte stream into pieces of `size` bytes (the last may be shorter), as a microphone would send. */
async function* rechunk(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let pending: Uint8Array = new Uint8Array(0);
  for await (const bytes of source) {
    const joined: Uint8Array = pending.byteLength ? Buffer.concat([pending, bytes]) : bytes;
    let offset = 0;
    for (; offset + size <= joined.byteLength; offset += size) yield joined.subarray(offset, offset + size);
    pending = joined.subarray(offset);
  }
  if (pending.byteLength) yield pending;
}
