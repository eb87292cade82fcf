/**
 * The mutations of a valid answer (answer.ts), as fast-check arbitraries and one `mutate()`:
 * byte cuts and flips, frames duplicated, reordered or dropped, a JSON field given a value of
 * the wrong type, invalid base64, odd-length PCM, invalid UTF-8, a wrong content type, a close
 * after part of the answer, event-stream messages with bad CRCs or lengths, and the provider
 * echoing the caller's key. Positions are drawn as integers and taken modulo what the answer
 * has, so one arbitrary serves every wire.
 */
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import type { Ending, Frame, Mutated, Wire } from './answer.js';

/** Values of the wrong type, or of the right type but out of any sane range. */
export const ODD_VALUES: readonly unknown[] = [
  null,
  42,
  -1,
  1.5,
  1e308,
  -1e308,
  'NaN',
  'Infinity',
  '-0',
  '',
  true,
  [],
  [1, 2],
  {},
  { nested: { deep: [null] } },
  'x'.repeat(20_000),
  '\u0000',
  '\ud800',
];

/** Strings that are not base64 (or base64 that decodes to a sample and a half). */
export const BAD_BASE64: readonly string[] = [
  '!!!!',
  'AAA',
  'A===',
  'AA=A',
  'YWJj\nZGVm',
  'éééé',
  '@@@@AAAA',
  'AAE',
  '====',
  ' ',
];

/** A mutation, drawn before the answer is known; indices are reduced modulo the answer. */
export type Mutation =
  | { kind: 'none' }
  | { kind: 'rechunk'; cuts: number[] }
  | { kind: 'truncate'; at: number; ending: 0 | 1 | 2 }
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'duplicate'; frame: number }
  | { kind: 'reorder'; a: number; b: number }
  | { kind: 'drop'; frame: number }
  | { kind: 'drop-end'; which: number }
  | { kind: 'duplicate-end'; which: number }
  | { kind: 'field'; frame: number; path: number; value: number }
  | { kind: 'base64'; frame: number; value: number }
  | { kind: 'odd-pcm'; frame: number }
  | { kind: 'utf8'; frame: number; path: number }
  | { kind: 'content-type'; value: number }
  | { kind: 'close'; after: number; code: number }
  | { kind: 'event-stream'; frame: number; what: number }
  | { kind: 'echo-key'; frame: number; path: number }
  | { kind: 'error-frame'; at: number; path: number; value: number; echo: boolean }
  | { kind: 'binary'; frame: number };

export const CONTENT_TYPES = [
  'text/html; charset=utf-8',
  'application/json',
  'audio/mpeg',
  'text/plain',
  'application/octet-stream',
  'multipart/mixed; boundary=x',
] as const;

const CLOSE_CODES: readonly Ending[] = [1000, 1001, 1011, 4000, 'drop'];
const EVENT_STREAM_FAULTS = [
  'prelude crc',
  'message crc',
  'total length huge',
  'total length huge, prelude crc right',
  'total length tiny, prelude crc right',
  'headers length beyond message, prelude crc right',
  'header type unknown',
] as const;

const n = fc.nat({ max: 1 << 20 });

/** Every mutation kind that applies to `wire`. */
export function mutationArb(wire: Wire): fc.Arbitrary<Mutation> {
  const kinds: fc.Arbitrary<Mutation>[] = [
    fc.constant({ kind: 'none' as const }),
    fc.record({
      kind: fc.constant('truncate' as const),
      at: n,
      ending: fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2>,
    }),
    fc.record({ kind: fc.constant('flip' as const), at: n, xor: fc.integer({ min: 1, max: 255 }) }),
    fc.record({ kind: fc.constant('duplicate' as const), frame: n }),
    fc.record({ kind: fc.constant('reorder' as const), a: n, b: n }),
    fc.record({ kind: fc.constant('drop' as const), frame: n }),
    fc.record({ kind: fc.constant('field' as const), frame: n, path: n, value: n }),
    fc.record({ kind: fc.constant('base64' as const), frame: n, value: n }),
    fc.record({ kind: fc.constant('odd-pcm' as const), frame: n }),
    fc.record({ kind: fc.constant('utf8' as const), frame: n, path: n }),
    fc.record({ kind: fc.constant('echo-key' as const), frame: n, path: n }),
  ];
  if (wire.ends.length > 0)
    kinds.push(
      fc.record({ kind: fc.constant('drop-end' as const), which: n }),
      fc.record({ kind: fc.constant('duplicate-end' as const), which: n }),
    );
  if (wire.error)
    kinds.push(
      fc.record({ kind: fc.constant('error-frame' as const), at: n, path: n, value: n, echo: fc.boolean() }),
    );
  if (wire.messages)
    kinds.push(
      fc.record({ kind: fc.constant('close' as const), after: n, code: n }),
      fc.record({ kind: fc.constant('binary' as const), frame: n }),
    );
  else
    kinds.push(
      fc.record({ kind: fc.constant('content-type' as const), value: n }),
      fc.record({ kind: fc.constant('rechunk' as const), cuts: fc.array(n, { minLength: 1, maxLength: 8 }) }),
    );
  if (wire.eventStream)
    kinds.push(fc.record({ kind: fc.constant('event-stream' as const), frame: n, what: n }));
  return fc.oneof(...kinds);
}

/** The paths (`a.b.0.c`) of every value inside `value`, the root excluded. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [];
  const out: string[][] = [];
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, key];
    out.push(path, ...paths(child, path));
  }
  return out;
}

function stringPaths(value: unknown): string[][] {
  return paths(value).filter((p) => typeof get(value, p) === 'string');
}

function get(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) at = (at as Record<string, unknown>)[key];
  return at;
}

function set(value: unknown, path: readonly string[], next: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path[path.length - 1] as string] = next;
  return copy;
}

const SENTINEL = 'ZZ_SENTINEL_ZZ';

/** The mutated answer: `frames` written by `wire` after `mutation`, with the caller's `key`. */
export function mutate(frames: readonly Frame[], wire: Wire, mutation: Mutation, key: string): Mutated {
  const ends = new Set(wire.ends);
  const hasEnds = ends.size > 0;
  const normal: Ending = wire.messages ? (wire.keepOpen ? 'open' : 1000) : 'end';
  const encoded = frames.map((f) => wire.encode(f));
  const pick = (i: number, list: readonly unknown[] = frames) => i % Math.max(1, list.length);
  const jsonFrames = frames.map((f, i) => (f.json !== undefined ? i : -1)).filter((i) => i >= 0);
  const out = (
    messages: Buffer[],
    endKept: boolean | 'unknown',
    label: string,
    extra: Partial<Mutated> = {},
  ) => ({
    messages,
    endKept,
    ending: normal,
    label,
    kind: mutation.kind,
    ...extra,
  });
  /** The answer with frame `i` replaced by `frame` (re-encoded). */
  const replace = (i: number, frame: Frame) => encoded.map((e, j) => (j === i ? wire.encode(frame) : e));
  const endTouched = (i: number): boolean | 'unknown' => (ends.has(i) ? 'unknown' : true);
  switch (mutation.kind) {
    case 'none':
      return out(encoded, true, 'valid answer');
    case 'rechunk': {
      // The same body, written in pieces cut anywhere (inside a UTF-8 character, a frame, a line end).
      const body = Buffer.concat(encoded);
      const cuts = [...new Set(mutation.cuts.map((c) => c % (body.byteLength + 1)))].sort((a, b) => a - b);
      const pieces: Buffer[] = [];
      let from = 0;
      for (const cut of [...cuts, body.byteLength]) {
        if (cut > from) pieces.push(body.subarray(from, cut));
        from = Math.max(from, cut);
      }
      return out(pieces, true, `valid answer in pieces cut at ${cuts.join(',')}`);
    }
    case 'truncate': {
      const total = encoded.reduce((s, e) => s + e.byteLength, 0);
      const at = mutation.at % (total + 1);
      const kept: Buffer[] = [];
      let offset = 0;
      let lastWhole = -1;
      /** The last frame delivered: whole, or but for its slack (an SSE event's blank line). */
      let lastDelivered = -1;
      for (const [i, e] of encoded.entries()) {
        if (offset + e.byteLength <= at) {
          kept.push(e);
          lastWhole = i;
        } else if (offset < at) kept.push(e.subarray(0, at - offset));
        if (offset + e.byteLength - (wire.slack ?? 0) <= at) lastDelivered = i;
        offset += e.byteLength;
      }
      const endings: readonly Ending[] = wire.messages ? [1000, 1011, 'drop'] : ['end', 'reset', 'open'];
      const ending = endings[mutation.ending] as Ending;
      const endArrived = [...ends].some((i) => i <= (ending === 'end' ? lastDelivered : lastWhole));
      const insideFrame = kept.length > lastWhole + 1;
      const cleanEnd = ending === 'end' && !(wire.eventStream && insideFrame);
      const endKept = hasEnds ? endArrived || (wire.cleanEnd === true && cleanEnd) : cleanEnd;
      return out(kept, endKept, `cut at byte ${at} of ${total}, then ${ending}`, { ending });
    }
    case 'flip': {
      const body = Buffer.concat(encoded);
      if (body.byteLength === 0) return out(encoded, true, 'flip in an empty answer');
      const at = mutation.at % body.byteLength;
      // Flip inside the message that holds byte `at` (a WebSocket keeps its messages apart).
      let offset = 0;
      const flipped = encoded.map((e) => {
        const copy = Buffer.from(e);
        if (at >= offset && at < offset + e.byteLength)
          copy[at - offset] = (copy[at - offset] as number) ^ mutation.xor;
        offset += e.byteLength;
        return copy;
      });
      return out(flipped, hasEnds ? 'unknown' : true, `byte ${at} xor 0x${mutation.xor.toString(16)}`);
    }
    case 'duplicate': {
      const i = pick(mutation.frame);
      const copy = [...encoded.slice(0, i + 1), encoded[i] as Buffer, ...encoded.slice(i + 1)];
      return out(copy, true, `frame ${i} twice`);
    }
    case 'reorder': {
      const a = pick(mutation.a);
      const b = pick(mutation.b);
      const copy = [...encoded];
      [copy[a], copy[b]] = [copy[b] as Buffer, copy[a] as Buffer];
      const endKept = ends.has(a) || ends.has(b) ? 'unknown' : true;
      return out(copy, endKept, `frames ${a} and ${b} swapped`);
    }
    case 'drop': {
      const i = pick(mutation.frame);
      const left = [...ends].filter((e) => e !== i);
      return out(
        encoded.filter((_, j) => j !== i),
        hasEnds ? left.length > 0 || wire.cleanEnd === true : true,
        `frame ${i} dropped`,
      );
    }
    case 'drop-end': {
      if (!hasEnds) return out(encoded, true, 'no end frame');
      // Every end marker dropped (a chat answer without its finish reason and [DONE]).
      const all = mutation.which % 2 === 0;
      const list = [...ends];
      const gone = all ? list : [list[pick(mutation.which, list)] as number];
      const left = list.filter((e) => !gone.includes(e));
      return out(
        encoded.filter((_, j) => !gone.includes(j)),
        left.length > 0 || wire.cleanEnd === true,
        `end frame(s) ${gone.join(',')} dropped`,
      );
    }
    case 'duplicate-end': {
      if (!hasEnds) return out(encoded, true, 'no end frame');
      const list = [...ends];
      const i = list[pick(mutation.which, list)] as number;
      const copy = [...encoded.slice(0, i + 1), encoded[i] as Buffer, ...encoded.slice(i + 1)];
      return out(copy, true, `end frame ${i} twice`);
    }
    case 'field': {
      if (jsonFrames.length === 0) return out(encoded, true, 'no JSON frame');
      const i = jsonFrames[pick(mutation.frame, jsonFrames)] as number;
      const frame = frames[i] as Frame;
      const all = paths(frame.json);
      if (all.length === 0) return out(encoded, true, 'no JSON field');
      const path = all[pick(mutation.path, all)] as string[];
      const value = ODD_VALUES[pick(mutation.value, ODD_VALUES)];
      const json = set(frame.json, path, value);
      const shown =
        typeof value === 'string' && value.length > 20 ? `"x" x ${value.length}` : JSON.stringify(value);
      return out(replace(i, { ...frame, json }), endTouched(i), `frame ${i} ${path.join('.')} = ${shown}`);
    }
    case 'base64': {
      const audio = frames.map((f, i) => (f.audioField ? i : -1)).filter((i) => i >= 0);
      if (audio.length === 0) return out(encoded, true, 'no base64 field');
      const i = audio[pick(mutation.frame, audio)] as number;
      const frame = frames[i] as Frame;
      const value = BAD_BASE64[pick(mutation.value, BAD_BASE64)] as string;
      const json = set(frame.json, [frame.audioField as string], value);
      return out(
        replace(i, { ...frame, json }),
        true,
        `frame ${i} ${frame.audioField} = ${JSON.stringify(value)}`,
      );
    }
    case 'odd-pcm': {
      const audio = frames
        .map((f, i) => (f.audioField || (f.raw && f.json === undefined) ? i : -1))
        .filter((i) => i >= 0);
      if (audio.length === 0) return out(encoded, true, 'no audio frame');
      const i = audio[pick(mutation.frame, audio)] as number;
      const frame = frames[i] as Frame;
      if (frame.audioField) {
        const bytes = Buffer.from(String(get(frame.json, [frame.audioField])), 'base64');
        const odd = bytes.subarray(0, Math.max(1, bytes.byteLength - 1) | 1);
        const json = set(frame.json, [frame.audioField], odd.toString('base64'));
        return out(replace(i, { ...frame, json }), true, `frame ${i} audio ${odd.byteLength} bytes (odd)`);
      }
      const raw = frame.raw as Buffer;
      const odd = raw.subarray(0, Math.max(1, raw.byteLength - 1) | 1);
      return out(replace(i, { raw: odd }), true, `frame ${i} PCM ${odd.byteLength} bytes (odd)`);
    }
    case 'utf8':
    case 'echo-key': {
      const candidates = jsonFrames.filter((i) => stringPaths((frames[i] as Frame).json).length > 0);
      if (candidates.length === 0) return out(encoded, true, 'no JSON string');
      const i = candidates[pick(mutation.frame, candidates)] as number;
      const frame = frames[i] as Frame;
      const all = stringPaths(frame.json);
      const path = all[pick(mutation.path, all)] as string[];
      if (mutation.kind === 'echo-key') {
        const json = set(frame.json, path, `invalid key ${key} (echoed)`);
        return out(
          replace(i, { ...frame, json }),
          endTouched(i),
          `frame ${i} ${path.join('.')} echoes the key`,
        );
      }
      const json = set(frame.json, path, SENTINEL);
      const bytes = wire.encode({ ...frame, json });
      const at = bytes.indexOf(SENTINEL);
      const bad = Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([0x48, 0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
        bytes.subarray(at + SENTINEL.length),
      ]);
      // An event-stream message's CRCs cover the payload: only SSE/WebSocket/raw text is patched in place.
      if (wire.eventStream) return out(encoded, true, 'no in-place UTF-8 patch in an event stream');
      return out(
        encoded.map((e, j) => (j === i ? bad : e)),
        endTouched(i),
        `frame ${i} ${path.join('.')} invalid UTF-8`,
      );
    }
    case 'error-frame': {
      if (!wire.error) return out(encoded, true, 'no error frame');
      // The provider's error frame at `at`, one field given an odd value (or none), the key
      // echoed in each of its strings when `echo`.
      const at = mutation.at % (frames.length + 1);
      let json = structuredClone((wire.error as Frame).json);
      // What says the frame is an error (`type`) stays as it is.
      if (mutation.echo)
        for (const path of stringPaths(json))
          if (!['context_id', 'error.type', ...wire.discriminators].includes(path.join('.')))
            json = set(json, path, `${String(get(json, path))} ${key}`);
      const all = paths(json);
      const odd = mutation.value % (ODD_VALUES.length + 1);
      let label = `error frame at ${at}`;
      /** The odd value went where it says what the frame is (or whose it is): it may be no error now. */
      let unsure = false;
      if (odd < ODD_VALUES.length && all.length > 0) {
        const path = all[pick(mutation.path, all)] as string[];
        unsure = ['context_id', 'error', 'type', ...wire.discriminators].includes(path.join('.'));
        json = set(json, path, ODD_VALUES[odd]);
        label += ` with ${path.join('.')} = ${JSON.stringify(ODD_VALUES[odd])?.slice(0, 20)}`;
      }
      if (mutation.echo) label += ', echoing the key';
      const bytes = wire.encode({ ...(wire.error as Frame), json });
      const endBefore = [...ends].some((e) => e < at);
      const endKept = unsure ? 'unknown' : hasEnds ? endBefore : false;
      return out([...encoded.slice(0, at), bytes, ...encoded.slice(at)], endKept, label);
    }
    case 'binary': {
      const i = pick(mutation.frame);
      const endKept = [...ends].some((e) => e < i) ? true : 'unknown';
      return out(encoded, endKept, `frame ${i} as a binary message`, { binary: [i] });
    }
    case 'content-type': {
      const value = CONTENT_TYPES[pick(mutation.value, CONTENT_TYPES)] as string;
      return out(encoded, true, `content-type ${value}`, { contentType: value });
    }
    case 'close': {
      const after = mutation.after % (encoded.length + 1);
      const code = CLOSE_CODES[pick(mutation.code, CLOSE_CODES)] as Ending;
      const endArrived = [...ends].some((i) => i < after);
      return out(
        encoded.slice(0, after),
        endArrived,
        `close ${code} after ${after} of ${encoded.length} messages`,
        {
          ending: code,
        },
      );
    }
    case 'event-stream': {
      const i = pick(mutation.frame);
      const what = EVENT_STREAM_FAULTS[
        pick(mutation.what, EVENT_STREAM_FAULTS)
      ] as (typeof EVENT_STREAM_FAULTS)[number];
      if ((encoded[i] as Buffer).byteLength < 16) return out(encoded, true, 'no whole event-stream message');
      const bad = corruptEventStream(encoded[i] as Buffer, what);
      const endArrived = [...ends].some((e) => e < i);
      return out(
        encoded.map((e, j) => (j === i ? bad : e)),
        endArrived,
        `event-stream message ${i}: ${what}`,
      );
    }
  }
}

function preludeCrc(message: Buffer): void {
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
}

function corruptEventStream(message: Buffer, what: (typeof EVENT_STREAM_FAULTS)[number]): Buffer {
  const copy = Buffer.from(message);
  switch (what) {
    case 'prelude crc':
      copy[8] = (copy[8] as number) ^ 0x5a;
      return copy;
    case 'message crc':
      copy[copy.byteLength - 1] = (copy[copy.byteLength - 1] as number) ^ 0x5a;
      return copy;
    case 'total length huge':
      copy.writeUInt32BE(0x7ffffff0, 0);
      return copy;
    case 'total length huge, prelude crc right':
      copy.writeUInt32BE(0x7ffffff0, 0);
      preludeCrc(copy);
      return copy;
    case 'total length tiny, prelude crc right':
      copy.writeUInt32BE(10, 0);
      preludeCrc(copy);
      return copy;
    case 'headers length beyond message, prelude crc right':
      copy.writeUInt32BE(copy.byteLength + 100, 4);
      preludeCrc(copy);
      return copy;
    case 'header type unknown': {
      // The first header's value type byte (after its name) set to 42, CRCs fixed.
      const nameLength = copy.readUInt8(12);
      copy[12 + 1 + nameLength] = 42;
      copy.writeUInt32BE(crc32(copy.subarray(0, copy.byteLength - 4)), copy.byteLength - 4);
      return copy;
    }
  }
}

/**
 * Two mutations at once: `first` on the answer, then `second` on the messages it gave (each
 * taken as one raw frame, so the second cuts, flips, duplicates, reorders or drops what the
 * first left). What the harness may expect of the answer's end is then unknown unless both
 * kept it; the ending is the first's unless the second cut or closed.
 */
export function mutateTwice(
  frames: readonly Frame[],
  wire: Wire,
  first: Mutation,
  second: Mutation,
  key: string,
): Mutated {
  const once = mutate(frames, wire, first, key);
  const rawWire: Wire = {
    encode: (f) => f.raw as Buffer,
    ends: [],
    discriminators: [],
    messages: wire.messages,
    ...(wire.eventStream ? { eventStream: true } : {}),
  };
  const twice = mutate(
    once.messages.map((raw) => ({ raw })),
    rawWire,
    second,
    key,
  );
  const secondEnds = second.kind === 'truncate' || second.kind === 'close';
  // A raw body's end is its framing: the second cut's ending decides. An in-band end marker
  // the first mutation removed stays removed unless the second may have moved or removed what
  // the first added (an error frame before the end).
  const endKept =
    wire.ends.length === 0 && !wire.eventStream && secondEnds
      ? twice.endKept
      : once.endKept === false && ['none', 'truncate', 'close', 'rechunk'].includes(second.kind)
        ? false
        : once.endKept === true && second.kind === 'none'
          ? true
          : 'unknown';
  return {
    ...once,
    messages: twice.messages,
    endKept,
    ending: secondEnds ? twice.ending : once.ending,
    contentType: twice.contentType ?? once.contentType,
    label: `${once.label}, then ${twice.label}`,
    kind: `${once.kind}+${twice.kind}`,
  };
}
