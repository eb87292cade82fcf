import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav } from '../../src/audio/index.js';

/** Samples in the fake espeak-ng's WAV (22050 Hz s16le mono). */
export const FAKE_SPEECH_SAMPLES = 1000;

/** The WAV the fake espeak-ng prints: a 441 Hz sine (period 50 samples), like espeak-ng's format but with exact sizes. */
export function fakeSpeechWav(): Uint8Array {
  const pcm = new Uint8Array(FAKE_SPEECH_SAMPLES * 2);
  const view = new DataView(pcm.buffer);
  for (let i = 0; i < FAKE_SPEECH_SAMPLES; i++) {
    view.setInt16(i * 2, Math.round(8000 * Math.sin((2 * Math.PI * i) / 50)), true);
  }
  return encodeWav({ encoding: 'pcm_s16le', sampleRate: 22050, channels: 1 }, pcm);
}

// The fake espeak-ng records its arguments, then acts on its last argument (the text):
// 'fail-before' fails like an unknown voice, 'crash-after' prints audio then exits 3,
// 'hang' prints audio then never ends, anything else prints the WAV and exits 0.
const FAKE_ESPEAK = `#!/bin/sh
dir=$(dirname "$0")
printf '%s\\n' "$@" > "$dir/espeak-args.txt"
for last; do :; done
case "$last" in
  fail-before) echo "Error: The specified espeak-ng voice does not exist." >&2; exit 1 ;;
  crash-after) cat "$dir/speech.wav"; exit 3 ;;
  hang) cat "$dir/speech.wav"; exec sleep 30 ;;
  *) cat "$dir/speech.wav" ;;
esac
`;

// The fake pocketsphinx_continuous (-infile FILE -logfn LOG) keeps a copy of its input, then
// acts on the file 'sphinx-mode': 'fail' fails before any text (with an ERROR line in its
// log), 'fail-after' prints one utterance then fails, 'path' prints its input path, anything
// else prints two utterances around an empty line.
const FAKE_CONTINUOUS = `#!/bin/sh
dir=$(dirname "$0")
printf '%s\\n' "$@" > "$dir/sphinx-args.txt"
cp "$2" "$dir/last-input.wav"
mode=$(cat "$dir/sphinx-mode" 2>/dev/null)
case "$mode" in
  fail) echo 'ERROR: "acmod.c", line 78: Folder does not contain acoustic model definition mdef' > "$4"; exit 1 ;;
  fail-after) echo "ask not"; echo 'ERROR: "decoder.c", line 9: decoder died' > "$4"; exit 2 ;;
  path) echo "$2" ;;
  *) echo "ask not"; echo ""; echo "what your country can do for you" ;;
esac
`;

// The fake pocketsphinx 5 (-logfn LOG live FILE) prints JSON lines, as \`pocketsphinx live\` does.
const FAKE_V5 = `#!/bin/sh
dir=$(dirname "$0")
printf '%s\\n' "$@" > "$dir/sphinx-args.txt"
echo '{"b":0.000,"d":0.900,"p":1.000,"t":"ask not","w":[]}'
echo '{"b":1.000,"d":2.100,"p":1.000,"t":"what your country can do","w":[]}'
`;

/** A temp dir holding fake engine scripts, and helpers to drive and inspect them. */
export interface FakeEngines {
  dir: string;
  /** Path of the fake espeak-ng. */
  espeak: string;
  /** Path of the fake `pocketsphinx_continuous`. */
  continuous: string;
  /** Path of the fake pocketsphinx 5 (named `pocketsphinx`, in its own dir). */
  v5: string;
  /** Sets what the fake `pocketsphinx_continuous` does next. */
  setSphinxMode(mode: 'ok' | 'fail' | 'fail-after' | 'path'): Promise<void>;
  /** The arguments the fake espeak-ng got last, one per element. */
  espeakArgs(): Promise<string[]>;
  /** The arguments the fake pocketsphinx (either) got last. */
  sphinxArgs(binary: 'continuous' | 'v5'): Promise<string[]>;
  /** The WAV file the fake `pocketsphinx_continuous` was given last. */
  lastSphinxInput(): Promise<Uint8Array>;
  remove(): Promise<void>;
}

async function script(path: string, text: string): Promise<string> {
  await writeFile(path, text);
  await chmod(path, 0o755);
  return path;
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).replace(/\n$/, '').split('\n');
}

/** Writes the fake engines to a new temp dir. */
export async function createFakeEngines(): Promise<FakeEngines> {
  const dir = await mkdtemp(join(tmpdir(), 'voxroute-fake-engines-'));
  const v5Dir = await mkdtemp(join(dir, 'v5-'));
  await writeFile(join(dir, 'speech.wav'), fakeSpeechWav());
  return {
    dir,
    espeak: await script(join(dir, 'fake-espeak-ng'), FAKE_ESPEAK),
    continuous: await script(join(dir, 'fake-pocketsphinx_continuous'), FAKE_CONTINUOUS),
    v5: await script(join(v5Dir, 'pocketsphinx'), FAKE_V5),
    setSphinxMode: (mode) => writeFile(join(dir, 'sphinx-mode'), mode),
    espeakArgs: () => lines(join(dir, 'espeak-args.txt')),
    sphinxArgs: (binary) => lines(join(binary === 'v5' ? v5Dir : dir, 'sphinx-args.txt')),
    lastSphinxInput: async () => new Uint8Array(await readFile(join(dir, 'last-input.wav'))),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
