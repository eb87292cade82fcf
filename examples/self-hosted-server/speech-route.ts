import { ApiError } from './api-error.js';
import type { RouteContext } from './context.js';
import { writeWithBackpressure } from './drain.js';
import { collectText, type EngineExit, resolveEngine } from './engines.js';
import { wavToOpenAIPcm } from './pcm-output.js';
import { readJsonBody } from './request-body.js';
import { parseSpeech, type SpeechParams } from './speech-params.js';

/** The error to answer when espeak-ng ended without producing any audio. */
function failureBeforeAudio(exit: EngineExit, stderr: string, params: SpeechParams): ApiError {
  if (exit.spawnError !== undefined) {
    return new ApiError(
      exit.spawnError.code === 'ENOENT' ? 501 : 500,
      `espeak-ng could not be started (${exit.spawnError.code ?? 'error'}).`,
      { code: exit.spawnError.code === 'ENOENT' ? 'engine_not_installed' : 'engine_failed' },
    );
  }
  if (/voice does not exist/i.test(stderr)) {
    return new ApiError(
      400,
      `Voice '${params.requestedVoice}' is not an espeak-ng voice (see espeak-ng --voices).`,
      {
        param: 'voice',
        code: 'invalid_voice',
      },
    );
  }
  const detail = stderr.trim().split('\n').at(-1)?.slice(0, 200) ?? '';
  const how = exit.signal !== null ? `signal ${exit.signal}` : `exit code ${exit.code}`;
  return new ApiError(500, `espeak-ng failed (${how})${detail === '' ? '' : `: ${detail}`}`, {
    code: 'engine_failed',
  });
}

/**
 * `POST /v1/audio/speech` on espeak-ng: runs `espeak-ng --stdout -v <voice> -s <wpm> -- <input>`
 * (no shell) and streams its output as espeak-ng produces it, with backpressure (a slow client
 * pauses espeak-ng). Headers are sent with the first audio bytes, so a failure before any
 * audio is a proper HTTP error (400 unknown voice, 500 engine failure, 501 not installed).
 * - `wav` (default): espeak-ng's WAV stream forwarded byte for byte: PCM s16le mono 22050 Hz
 *   with placeholder sizes in the header (0x7FFFF024 / 0x7FFFF000, see fixtures/README.md),
 *   `Content-Type: audio/wav`.
 * - `pcm`: OpenAI's raw 24 kHz s16le mono (PROTOCOLS.md 2.3), the WAV header stripped and the
 *   audio resampled 22050 -> 24000 Hz as it streams, `Content-Type: audio/pcm`.
 * A client that disconnects kills espeak-ng at once (SIGKILL). A failure after the first bytes
 * destroys the response, so the client sees a truncated stream, not a clean end.
 */
export async function handleSpeech(ctx: RouteContext): Promise<void> {
  const params = parseSpeech(await readJsonBody(ctx.req));
  const engine = await resolveEngine('espeak-ng', ctx.settings.engines.espeak);
  const args = ['--stdout', '-v', params.voice, '-s', String(params.wordsPerMinute), '--', params.input];
  const { child, exited } = ctx.spawner.spawn(engine, args);
  const stderr = collectText(child.stderr);
  const kill = () => child.kill('SIGKILL');
  ctx.signal.addEventListener('abort', kill, { once: true });
  const stdout = child.stdout as AsyncIterable<Uint8Array>;
  const output = params.format === 'pcm' ? wavToOpenAIPcm(stdout) : stdout;
  const contentType = params.format === 'pcm' ? 'audio/pcm' : 'audio/wav';
  const { res } = ctx;
  const sendHeaders = () => {
    if (!res.headersSent) res.writeHead(200, { 'content-type': contentType, 'x-accel-buffering': 'no' });
  };
  try {
    try {
      for await (const chunk of output) {
        if (ctx.signal.aborted) break;
        sendHeaders();
        await writeWithBackpressure(res, chunk);
      }
    } catch (error) {
      // A malformed or cut WAV from espeak-ng: report why espeak-ng stopped, if it failed.
      kill();
      const exit = await exited;
      if (ctx.signal.aborted) return;
      if (!res.headersSent && exit.code !== 0 && exit.signal !== 'SIGKILL')
        throw failureBeforeAudio(exit, stderr(), params);
      throw error;
    }
    if (ctx.signal.aborted) return;
    const exit = await exited;
    if (exit.code !== 0) {
      if (!res.headersSent) throw failureBeforeAudio(exit, stderr(), params);
      res.destroy();
      return;
    }
    sendHeaders();
    res.end();
  } finally {
    ctx.signal.removeEventListener('abort', kill);
    // Whatever ended the response (a client gone before the listener was added, an error),
    // espeak-ng must not live on, blocked on a pipe nobody reads.
    if (child.exitCode === null && child.signalCode === null) kill();
  }
}
