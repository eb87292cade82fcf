/**
 * Streamed text held by the clause splitter waiting for the next token (a sentence ending in an
 * abbreviation-like form, "at 5 p.m."; a complete sentence under the clause minimum, "Yes.";
 * words with no punctuation after them) is sent as it stands once the caller's text has sent
 * nothing for HELD_TEXT_FLUSH_MS (400 ms) on the router's clock: the listener is not left in
 * silence while the LLM runs a tool call. Tokens that keep coming (gaps under 400 ms) give the
 * pieces they gave before. The servers speak each provider's wire on their own (loopback): an
 * OpenAI speech server (one request per clause), a Cartesia /tts/websocket server and an
 * ElevenLabs stream-input server; the router's clock is a fake one moved by the test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { AbortError, type Router, type RouterConfig } from '../../src/index.js';
import { loadDeferredCode } from '../../src/routing/load-deferred-code.js';
import { HELD_TEXT_FLUSH_MS } from '../../src/routing/tts-progress.js';
import { deferred } from '../helpers/deferred.js';
import { until } from '../helpers/until.js';
import { FakeClock } from '../transport/fake-clock.js';
import { pcmSignal, recordingSpeechServer, router, wsServer } from './wire/servers.js';

const AUDIO = pcmSignal(480, 24_000, 3);

/** "I'll meet you at 5 p.m." (held: "p.m." may go on), then the LLM's pause, then "See you then." */
const AT_5_PM = [
  ["I'll", ' meet', ' you', ' at', ' 5', ' p', '.m', '.'],
  [' See', ' you', ' then', '.'],
];
/** A first sentence, then "Yes." (under the 20-character minimum: held), the pause, then more. */
const YES = [
  ['Sure', ',', ' I', ' can', ' do', ' that', '.', ' Yes', '.'],
  [' It', ' is', ' booked', ' for', ' eight', '.'],
];
/** Words with no punctuation after them (the last one may go on: "for" of "forward"), the pause, then the rest. */
const WORDS = [
  ['Let', ' me', ' look', ' that', ' up', ' for'],
  [' you', '.'],
];

/**
 * The caller's text: each group of tokens, then a wait for the test (after the last group too:
 * the text ends when the test says, so the last clause is found before the end of the text).
 */
class GatedTokens {
  readonly #groups: readonly (readonly string[])[];
  readonly #gates: ReturnType<typeof deferred<void>>[];
  /** Groups read to their end (the text waits at gate `waiting - 1`). */
  waiting = 0;
  constructor(groups: readonly (readonly string[])[]) {
    this.#groups = groups;
    this.#gates = groups.map(() => deferred());
  }
  /** Lets the text go on after group `i`. */
  open(i: number): void {
    this.#gates[i]!.resolve();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (let i = 0; i < this.#groups.length; i++) {
      yield* this.#groups[i]!;
      this.waiting = i + 1;
      await this.#gates[i]!.promise;
    }
  }
}

/**
 * What a streamed-text provider was given, as segments: the text sent between two flushes
 * (however the router batched the tokens into messages), each closed by `|flush`.
 */
function segments(log: readonly string[]): string[] {
  const out: string[] = [];
  let text = '';
  for (const entry of log) {
    if (entry === FLUSH) {
      out.push(`${text}|flush`);
      text = '';
    } else text += entry;
  }
  if (text !== '') out.push(text);
  return out;
}

const FLUSH = '\u0000flush';

/** `read` all on a Cartesia server's wire (`log` of {@link cartesia}): the adapter sends each piece as it comes. */
const sentAll = (log: readonly string[]) => (read: string) =>
  log.filter((e) => e !== FLUSH).join('') === read;

/**
 * `read` on an ElevenLabs server's wire (`log` of {@link elevenLabs}) up to its last white space:
 * the adapter sends text up to a word boundary and keeps the word after it until the next one
 * or a flush (the pieces after that are in-process: a {@link settle} later it has them).
 */
const sentToLastSpace = (log: readonly string[]) => (read: string) =>
  log.join('') === read.slice(0, read.search(/\s\S*$/) + 1);

/**
 * A few turns of the event loop (loopback writes land), only to see that nothing more happened
 * (a wait for something that should happen is an {@link until}).
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 1));
}

/** A tts() call read to its end in the background. */
function runCall(r: Router, text: AsyncIterable<string>, signal?: AbortSignal) {
  const call = { failure: undefined as unknown, done: Promise.resolve() };
  call.done = (async () => {
    for await (const _ of r.tts({ text, voice: 'v', ...(signal ? { signal } : {}) })) {
      // the audio is not looked at here
    }
  })().catch((error: unknown) => {
    call.failure = error;
  });
  return call;
}

/** A router over one provider on a TTS route with no first-chunk deadline, on `clock`. */
function routerOver(provider: RouterConfig['providers'][string], clock: FakeClock): Router {
  return router(
    { providers: { p: provider }, routes: { tts: { providers: ['p'], firstChunkTimeoutMs: false } } },
    { clock },
  );
}

/** An OpenAI speech server (one request per clause): the input of each request, in order. */
async function openAi(clock: FakeClock) {
  const { wire, inputs } = await recordingSpeechServer(AUDIO);
  const r = routerOver(
    { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } },
    clock,
  );
  return { r, inputs };
}

/**
 * A Cartesia /tts/websocket server: `log` holds each non-empty transcript as sent and
 * {@link FLUSH} for each flush, in order (see {@link segments}); each transcript is answered with audio, each flush with
 * `flush_done`, the end of input with `done`.
 */
async function cartesia(clock: FakeClock) {
  const log: string[] = [];
  let flushes = 0;
  const wire = await wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      const send = (message: object) => ws.send(JSON.stringify({ context_id: m.context_id, ...message }));
      if (m.cancel) return;
      if (typeof m.transcript === 'string' && m.transcript !== '') {
        log.push(m.transcript);
        send({ type: 'chunk', data: AUDIO.toString('base64'), done: false, status_code: 206 });
      }
      if (m.flush === true) {
        log.push(FLUSH);
        send({ type: 'flush_done', done: false, flush_done: true, flush_id: ++flushes, status_code: 206 });
      }
      if (m.continue === false) send({ type: 'done', done: true, status_code: 200 });
    });
  });
  const r = routerOver(
    {
      kind: 'cartesia',
      baseUrl: wire.url,
      apiKey: 'k',
      // No warm socket kept after the call: its timer would be the clock's too.
      tts: { voices: { v: 'voice' }, transport: 'websocket', addTimestamps: false, keepWarmMs: 0 },
    },
    clock,
  );
  return { r, log };
}

/**
 * An ElevenLabs stream-input server: `log` holds the text of each message with text in it,
 * then {@link FLUSH} when it has `flush: true` (see {@link segments}); a flush is answered with
 * audio, `{"text":""}` with `isFinal` and a close.
 */
async function elevenLabs(clock: FakeClock) {
  const log: string[] = [];
  const wire = await wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { text: string; flush?: boolean };
      if (m.text === '') {
        ws.send(JSON.stringify({ isFinal: true }));
        ws.close(1000);
        return;
      }
      if (m.text.trim() === '') return; // the first message (settings) and keep-alives
      log.push(m.text);
      if (m.flush) log.push(FLUSH);
      if (m.flush) ws.send(JSON.stringify({ audio: AUDIO.toString('base64'), isFinal: false }));
    });
  });
  const r = routerOver(
    {
      kind: 'elevenlabs',
      baseUrl: wire.url.replace(/^ws/, 'http'),
      apiKey: 'k',
      tts: { voices: { v: 'voice' }, transport: 'websocket' },
    },
    clock,
  );
  return { r, log };
}

/**
 * Runs `groups` through `r`: after each group but the last, waits until the timer of held text
 * is set (due HELD_TEXT_FLUSH_MS after the last token: the clock stands still while the text
 * waits) and, given `onWire`, until `onWire(read)` holds (`read`: the text read so far; a
 * streamed-text server's wire has what the adapter was given of it, so the timer finds it
 * handed out, as after a real pause), moves the clock by `pauseMs`, calls `atPause(i)`, then
 * lets the text go on; after the last, lets the loopback settle and ends the text. Returns the
 * call's failure (undefined when it ended well).
 */
async function speak(
  r: Router,
  clock: FakeClock,
  groups: readonly (readonly string[])[],
  pauseMs: number,
  atPause: (i: number) => Promise<void> = async () => {},
  onWire?: (read: string) => boolean,
): Promise<unknown> {
  const text = new GatedTokens(groups);
  const call = runCall(r, text);
  for (let i = 0; i < groups.length; i++) {
    await until(() => text.waiting === i + 1, `group ${i} read`);
    if (i < groups.length - 1) {
      const due = clock.now() + HELD_TEXT_FLUSH_MS;
      await until(() => clock.hasTimerAt(due), `the timer of held text after group ${i}`);
      const read = groups
        .slice(0, i + 1)
        .flat()
        .join('');
      if (onWire) {
        await until(() => onWire(read), `group ${i} on the wire`);
        // What the adapter was given after that is in-process (no socket in between).
        await settle();
      }
      clock.advance(pauseMs);
      await atPause(i);
    } else await settle();
    text.open(i);
  }
  await call.done;
  return call.failure;
}

// The adapters' and transports' code loads when the first router is made (compiled on demand
// under vitest): about 1 s on an idle machine, ten times that under load. Loaded here, so that
// a test's 20 s covers its own case, not the file's cold start.
beforeAll(() => loadDeferredCode(), 60_000);

describe('held streamed text is sent once the caller paused for HELD_TEXT_FLUSH_MS', () => {
  it('the wait is 400 ms', () => {
    expect(HELD_TEXT_FLUSH_MS).toBe(400);
  });

  describe('one request per clause (OpenAI speech): the inputs the server got', () => {
    it('"at 5 p.m." then a pause: nothing at 399 ms, the held sentence at 400 ms, then the rest', async () => {
      const clock = new FakeClock();
      const { r, inputs } = await openAi(clock);
      const failure = await speak(r, clock, AT_5_PM, 399, async () => {
        await settle();
        expect(inputs).toEqual([]);
        clock.advance(1);
        await until(() => inputs.length === 1, 'the held sentence was asked for');
        expect(inputs).toEqual(["I'll meet you at 5 p.m."]);
      });
      expect(failure).toBeUndefined();
      expect(inputs).toEqual(["I'll meet you at 5 p.m.", 'See you then.']);
      expect(clock.pending).toBe(0);
    });

    it('a short "Yes." then a pause: sent alone at 400 ms', async () => {
      const clock = new FakeClock();
      const { r, inputs } = await openAi(clock);
      const failure = await speak(r, clock, YES, HELD_TEXT_FLUSH_MS);
      expect(failure).toBeUndefined();
      expect(inputs).toEqual(['Sure, I can do that.', 'Yes.', 'It is booked for eight.']);
      expect(clock.pending).toBe(0);
    });

    it('words with no punctuation then a pause: the words up to the last white space; the last word waits', async () => {
      const clock = new FakeClock();
      const { r, inputs } = await openAi(clock);
      const failure = await speak(r, clock, WORDS, HELD_TEXT_FLUSH_MS);
      expect(failure).toBeUndefined();
      expect(inputs).toEqual(['Let me look that up', 'for you.']);
    });

    it.each([
      ['at 5 p.m.', AT_5_PM, ["I'll meet you at 5 p.m. See you then."]],
      ['Yes.', YES, ['Sure, I can do that.', 'Yes. It is booked for eight.']],
      ['words', WORDS, ['Let me look that up for you.']],
    ])(
      '%s with gaps of 399 ms or none: the pieces of a text that never pauses',
      async (_, groups, expected) => {
        for (const gap of [0, HELD_TEXT_FLUSH_MS - 1]) {
          const clock = new FakeClock();
          const { r, inputs } = await openAi(clock);
          const text = new GatedTokens(groups);
          // `gap` ms before each token (the gate included): tokens that keep coming.
          const call = runCall(r, {
            async *[Symbol.asyncIterator]() {
              for await (const t of text) {
                clock.advance(gap);
                yield t;
              }
            },
          });
          for (let i = 0; i < groups.length; i++) {
            await until(() => text.waiting === i + 1, `group ${i} read`);
            await settle();
            text.open(i);
          }
          await call.done;
          expect(call.failure).toBeUndefined();
          expect(inputs).toEqual(expected);
          expect(clock.pending).toBe(0);
        }
      },
    );
  });

  describe('streamed-text providers: the text and flushes on the wire', () => {
    it('Cartesia WebSocket, "at 5 p.m." then a pause: no flush at 399 ms, a flush at 400 ms', async () => {
      const clock = new FakeClock();
      const { r, log } = await cartesia(clock);
      const failure = await speak(
        r,
        clock,
        AT_5_PM,
        399,
        async () => {
          await settle();
          expect(segments(log)).toEqual(["I'll meet you at 5 p.m."]);
          clock.advance(1);
          await until(() => log.includes(FLUSH), 'the flush');
          expect(segments(log)).toEqual(["I'll meet you at 5 p.m.|flush"]);
        },
        sentAll(log),
      );
      expect(failure).toBeUndefined();
      // " See you then." is under the 20-character minimum: spoken at the end of the text.
      expect(segments(log)).toEqual(["I'll meet you at 5 p.m.|flush", ' See you then.']);
    });

    it('Cartesia WebSocket, "Yes." then a pause: flushed alone', async () => {
      const clock = new FakeClock();
      const { r, log } = await cartesia(clock);
      const failure = await speak(r, clock, YES, HELD_TEXT_FLUSH_MS, undefined, sentAll(log));
      expect(failure).toBeUndefined();
      expect(segments(log)).toEqual([
        'Sure, I can do that.|flush',
        ' Yes.|flush',
        ' It is booked for eight.|flush',
      ]);
    });

    it('Cartesia WebSocket, words then a pause: no flush (the last word, sent already, may go on)', async () => {
      const clock = new FakeClock();
      const { r, log } = await cartesia(clock);
      const failure = await speak(r, clock, WORDS, HELD_TEXT_FLUSH_MS, undefined, sentAll(log));
      expect(failure).toBeUndefined();
      expect(segments(log)).toEqual(['Let me look that up for you.']);
    });

    it.each([
      ['at 5 p.m.', AT_5_PM, ["I'll meet you at 5 p.m. See you then.|flush"]],
      ['Yes.', YES, ['Sure, I can do that.|flush', ' Yes. It is booked for eight.|flush']],
    ])(
      'Cartesia WebSocket, %s with no pause: the flushes of a text that never pauses',
      async (_, groups, expected) => {
        const clock = new FakeClock();
        const { r, log } = await cartesia(clock);
        const failure = await speak(r, clock, groups, HELD_TEXT_FLUSH_MS - 1, undefined, sentAll(log));
        expect(failure).toBeUndefined();
        expect(segments(log)).toEqual(expected);
        await until(() => clock.pending === 0, 'every timer of the call cleared');
      },
    );

    it('ElevenLabs stream-input, "at 5 p.m." then a pause: "p.m. " sent with flush at 400 ms', async () => {
      const clock = new FakeClock();
      const { r, log } = await elevenLabs(clock);
      const failure = await speak(r, clock, AT_5_PM, HELD_TEXT_FLUSH_MS, undefined, sentToLastSpace(log));
      expect(failure).toBeUndefined();
      expect(segments(log)).toEqual(["I'll meet you at 5 p.m. |flush", 'See you then. |flush']);
    });

    it('ElevenLabs stream-input, no pause: the flushes of a text that never pauses', async () => {
      const clock = new FakeClock();
      const { r, log } = await elevenLabs(clock);
      const failure = await speak(r, clock, AT_5_PM, HELD_TEXT_FLUSH_MS - 1, undefined, sentToLastSpace(log));
      expect(failure).toBeUndefined();
      expect(segments(log)).toEqual(["I'll meet you at 5 p.m. See you then. |flush"]);
    });
  });

  it('barge-in while the held text waits: the timer is cleared, nothing is sent after', async () => {
    const clock = new FakeClock();
    const { r, log } = await cartesia(clock);
    const text = new GatedTokens(AT_5_PM);
    const controller = new AbortController();
    const call = runCall(r, text, controller.signal);
    await until(
      () => text.waiting === 1 && log.join('') === "I'll meet you at 5 p.m.",
      'the held sentence on the wire',
    );
    expect(clock.pending).toBe(1);
    clock.advance(HELD_TEXT_FLUSH_MS - 1);
    controller.abort();
    await call.done;
    expect(call.failure).toBeInstanceOf(AbortError);
    // The socket's close handshake has a timer of its own until the server's close frame comes:
    // a timer of the held text left set would keep the count above 0 (the clock stands still).
    await until(() => clock.pending === 0, 'every timer of the call cleared');
    clock.advance(10 * HELD_TEXT_FLUSH_MS);
    await settle();
    expect(segments(log)).toEqual(["I'll meet you at 5 p.m."]);
  });
});

describe('empty tokens are not text: they do not move the wait of held text', () => {
  it("'' every 300 ms while a sentence is held (an LLM stream mapped with `delta.content ?? ''` during a tool call): the held sentence is sent at 400 ms", async () => {
    const clock = new FakeClock();
    const { r, inputs } = await openAi(clock);
    const pending: ((step: IteratorResult<string>) => void)[] = [];
    const queued: IteratorResult<string>[] = [];
    let reads = 0;
    const give = (step: IteratorResult<string>) => {
      const take = pending.shift();
      if (take) take(step);
      else queued.push(step);
    };
    const text: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          reads++;
          const step = queued.shift();
          return step ? Promise.resolve(step) : new Promise((resolve) => pending.push(resolve));
        },
      }),
    };
    for (const t of AT_5_PM[0]!) give({ value: t, done: false });
    const call = runCall(r, text);
    await until(() => reads === AT_5_PM[0]!.length + 1, 'the held sentence read');
    for (let i = 0; i < 3; i++) {
      clock.advance(300);
      const read = reads;
      give({ value: '', done: false });
      await until(() => reads === read + 1, 'the empty token read');
    }
    // 900 ms after the last word: the held sentence was asked for at 400 ms.
    await until(() => inputs.length === 1, 'the held sentence was asked for');
    await settle();
    expect(inputs).toEqual(["I'll meet you at 5 p.m."]);
    for (const t of AT_5_PM[1]!) give({ value: t, done: false });
    give({ value: undefined, done: true });
    await call.done;
    expect(call.failure).toBeUndefined();
    expect(inputs).toEqual(["I'll meet you at 5 p.m.", 'See you then.']);
    expect(clock.pending).toBe(0);
  });
});
