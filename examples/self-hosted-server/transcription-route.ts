import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ApiError } from './api-error.js';
import type { RouteContext } from './context.js';
import { type EngineExit, pocketsphinxCli, resolveEngine, type SpawnedEngine } from './engines.js';
import { lastLogError, pocketsphinxArgs, recognisedText } from './pocketsphinx.js';
import { toRecognizerWav } from './recognizer-audio.js';
import { readFormData } from './request-body.js';
import { openSse, writeSse } from './sse.js';

/** A checked transcription form. */
interface TranscriptionParams {
  file: Blob;
  stream: boolean;
  responseFormat: 'json' | 'text';
}

function parseForm(form: FormData): TranscriptionParams {
  const file = form.get('file');
  if (file === null || typeof file === 'string') {
    throw new ApiError(400, "Missing required parameter: 'file' (a WAV file).", {
      param: 'file',
      code: 'missing_required_parameter',
    });
  }
  const language = form.get('language');
  if (typeof language === 'string' && language !== '' && !/^en\b/i.test(language)) {
    throw new ApiError(
      400,
      `Language '${language.slice(0, 20)}' is not supported here; pocketsphinx-en-us knows 'en'.`,
      {
        param: 'language',
        code: 'unsupported_language',
      },
    );
  }
  const format = form.get('response_format');
  if (format !== null && format !== 'json' && format !== 'text') {
    throw new ApiError(400, "Only response_format 'json' and 'text' are supported here.", {
      param: 'response_format',
      code: 'unsupported_response_format',
    });
  }
  return { file, stream: form.get('stream') === 'true', responseFormat: format ?? 'json' };
}

async function engineFailure(exit: EngineExit, logPath: string): Promise<ApiError> {
  if (exit.spawnError !== undefined) {
    const missing = exit.spawnError.code === 'ENOENT';
    return new ApiError(
      missing ? 501 : 500,
      `pocketsphinx could not be started (${exit.spawnError.code ?? 'error'}).`,
      {
        code: missing ? 'engine_not_installed' : 'engine_failed',
      },
    );
  }
  const how = exit.signal !== null ? `signal ${exit.signal}` : `exit code ${exit.code}`;
  const detail = await lastLogError(logPath);
  return new ApiError(
    500,
    `pocketsphinx failed (${how})${detail === '' ? '' : `: ${detail}`}. Is pocketsphinx-en-us installed?`,
    { code: 'engine_failed' },
  );
}

/**
 * `POST /v1/audio/transcriptions` on pocketsphinx. Form fields (PROTOCOLS.md 2.4): `file` (a
 * WAV in any encoding and rate voxroute reads: PCM s16le/f32le, mu-law, A-law; mono), `model`
 * (ignored), `language` (`en` only), `response_format` (`json` or `text`), `stream`.
 * The audio is converted to 16 kHz mono s16le, written to a temp dir, and decoded by
 * pocketsphinx, which prints one line per utterance as it decodes.
 * - `stream=true`: SSE with one `{"type":"transcript.text.delta","delta"}` per utterance as it is
 *   printed (utterances after the first start with a space), then
 *   `{"type":"transcript.text.done","text"}` with the whole text, and no `[DONE]` (as the OpenAI
 *   spec example). Headers go out with the first utterance, so a failure before any text is an
 *   HTTP error; a failure after it is a `data: {"error":{...}}` event (PROTOCOLS.md 2.1, 6.1).
 * - otherwise `{"text"}` (json) or the bare text (text/plain).
 * Errors: 400 bad form or unreadable WAV, 413 over 25 MB, 501 pocketsphinx missing, 500 engine
 * failure. The temp dir is removed and pocketsphinx killed when the client disconnects.
 */
export async function handleTranscription(ctx: RouteContext): Promise<void> {
  const params = parseForm(await readFormData(ctx.req));
  const engine = await resolveEngine('pocketsphinx', ctx.settings.engines.pocketsphinx);
  const wav = await toRecognizerWav(new Uint8Array(await params.file.arrayBuffer()));
  const cli = pocketsphinxCli(engine.path);
  const dir = await mkdtemp(join(tmpdir(), 'voxroute-stt-'));
  const wavPath = join(dir, 'input.wav');
  const logPath = join(dir, 'pocketsphinx.log');
  const { res } = ctx;
  let spawned: SpawnedEngine | undefined;
  // Idempotent: run before the last byte goes out, so a client that has its answer finds no temp file left.
  let cleaned: Promise<void> | undefined;
  const cleanup = () => {
    cleaned ??= (async () => {
      if (spawned !== undefined) {
        spawned.child.kill('SIGKILL');
        await spawned.exited;
      }
      await rm(dir, { recursive: true, force: true });
    })();
    return cleaned;
  };
  try {
    await writeFile(wavPath, wav);
    spawned = ctx.spawner.spawn(engine, pocketsphinxArgs(cli, wavPath, logPath));
    const { child, exited } = spawned;
    child.stderr.resume();
    const kill = () => child.kill('SIGKILL');
    ctx.signal.addEventListener('abort', kill, { once: true });
    const texts: string[] = [];
    try {
      for await (const line of createInterface({
        input: child.stdout,
        crlfDelay: Number.POSITIVE_INFINITY,
      })) {
        if (ctx.signal.aborted) break;
        const text = recognisedText(cli, line);
        if (text === undefined) continue;
        const delta = texts.length === 0 ? text : ` ${text}`;
        texts.push(text);
        if (params.stream) {
          if (!res.headersSent) openSse(res);
          await writeSse(res, { type: 'transcript.text.delta', delta });
        }
      }
      if (ctx.signal.aborted) return;
      const exit = await exited;
      if (exit.code !== 0) {
        const error = await engineFailure(exit, logPath);
        await cleanup();
        if (!res.headersSent) throw error;
        await writeSse(res, error.toBody());
        res.end();
        return;
      }
    } finally {
      ctx.signal.removeEventListener('abort', kill);
    }
    await cleanup();
    const text = texts.join(' ');
    if (params.stream) {
      if (!res.headersSent) openSse(res);
      await writeSse(res, { type: 'transcript.text.done', text });
      res.end();
    } else if (params.responseFormat === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    } else {
      const body = JSON.stringify({ text });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }
  } finally {
    await cleanup();
  }
}
