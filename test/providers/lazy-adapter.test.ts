import { describe, expect, it } from 'vitest';
import { VoxrouteError } from '../../src/errors/voxroute-error.js';
import { lazyAdapter } from '../../src/providers/lazy-adapter.js';
import type {
  AttemptContext,
  ProviderAdapter,
  ProviderAudio,
  SttCapabilities,
  TtsProvider,
} from '../../src/providers/types.js';
import { deferred } from '../helpers/deferred.js';

const STT: SttCapabilities = {
  inputFormats: [{ encoding: 'pcm_s16le', sampleRate: 16_000 }],
  streamingInput: true,
};

/** A built TTS adapter that yields one chunk of `byte`, and records close(). */
function builtAdapter(byte: number, closed: string[]): ProviderAdapter {
  const tts: TtsProvider = {
    capabilities: {
      outputFormats: [{ encoding: 'pcm_s16le', sampleRate: 24_000 }],
      streamingText: false,
      wordTimestamps: false,
    },
    async *synthesize(): AsyncGenerator<ProviderAudio> {
      yield { data: new Uint8Array([byte]), format: { encoding: 'pcm_s16le', sampleRate: 24_000 } };
    },
  };
  return {
    name: 'a',
    tts,
    close: async () => {
      closed.push(`closed ${byte}`);
    },
  };
}

async function firstBytes(adapter: ProviderAdapter): Promise<number[]> {
  const out: number[] = [];
  const audio = adapter.tts!.synthesize(
    { text: 'hi', voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24_000 } },
    {} as AttemptContext,
  );
  for await (const chunk of audio) out.push(...chunk.data);
  return out;
}

describe('lazyAdapter', () => {
  it('stands in at once with the STT capabilities, and hands over the built adapter when its code has loaded', async () => {
    const load = deferred<ProviderAdapter>();
    const handed: ProviderAdapter[] = [];
    let loads = 0;
    const stand = lazyAdapter({
      name: 'a',
      tts: true,
      chat: undefined,
      stt: STT,
      load: () => {
        loads += 1;
        return load.promise;
      },
      loaded: (adapter) => handed.push(adapter),
    });
    expect(loads).toBe(1);
    expect(stand.name).toBe('a');
    expect(stand.chat).toBeUndefined();
    expect(stand.stt?.capabilities).toBe(STT);
    const ready = stand.ready?.();
    expect(ready).toBeInstanceOf(Promise);
    expect(() => stand.tts!.capabilities).toThrow("The adapter of provider 'a' is still loading");
    const built = builtAdapter(7, []);
    load.resolve(built);
    await ready;
    expect(handed).toEqual([built]);
    expect(stand.ready?.()).toBeUndefined();
    expect(stand.tts!.capabilities).toBe(built.tts!.capabilities);
    expect(await firstBytes(stand)).toEqual([7]);
    expect(loads).toBe(1);
  });

  it('remembers a failed load, throws it at the call that needs the adapter, and loads again at the next ready()', async () => {
    const failure = new Error('chunk missing');
    const closed: string[] = [];
    const results = [Promise.reject(failure), Promise.resolve(builtAdapter(9, closed))];
    let loads = 0;
    const stand = lazyAdapter({
      name: 'a',
      tts: true,
      chat: undefined,
      stt: undefined,
      load: () => results[loads++] as Promise<ProviderAdapter>,
    });
    // The first load's failure: ready() resolves, it never rejects.
    await expect(stand.ready?.()).resolves.toBeUndefined();
    expect(stand.stt).toBeUndefined();
    let thrown: unknown;
    try {
      stand.tts!.synthesize({ text: 'x', voice: 'v', format: STT.inputFormats[0]! }, {} as AttemptContext);
    } catch (error) {
      thrown = error;
    }
    // Not the provider's fault: a VoxrouteError (a usage error to the router: no provider charged).
    expect(VoxrouteError.isInstance(thrown)).toBe(true);
    expect((thrown as VoxrouteError).code).toBe('VOXROUTE_ERROR');
    expect((thrown as Error).message).toBe(
      "The adapter code of provider 'a' could not be loaded (is the voxroute install complete? " +
        'After a passing failure such as EMFILE, restart the process: Node before 24 does not load a failed module again)',
    );
    expect((thrown as Error).cause).toBe(failure);
    // The next ready() loads again, and this time the adapter is built.
    await stand.ready?.();
    expect(loads).toBe(2);
    expect(await firstBytes(stand)).toEqual([9]);
    await stand.close?.();
    expect(closed).toEqual(['closed 9']);
  });

  it('stands in for chat with whether the provider continues a trailing assistant message, before its code has loaded', () => {
    const never = new Promise<ProviderAdapter>(() => {});
    const continues = lazyAdapter({
      name: 'a',
      tts: false,
      chat: { continuesAssistantMessage: true },
      stt: undefined,
      load: () => never,
    });
    const restarts = lazyAdapter({
      name: 'b',
      tts: false,
      chat: { continuesAssistantMessage: false },
      stt: undefined,
      load: () => never,
    });
    expect(continues.chat?.continuesAssistantMessage).toBe(true);
    expect(restarts.chat?.continuesAssistantMessage).toBe(false);
    expect(continues.tts).toBeUndefined();
  });

  it('close() waits for a load in progress and closes what it built', async () => {
    const load = deferred<ProviderAdapter>();
    const closed: string[] = [];
    const stand = lazyAdapter({
      name: 'a',
      tts: true,
      chat: undefined,
      stt: undefined,
      load: () => load.promise,
    });
    const closing = stand.close?.();
    closed.push('close called');
    load.resolve(builtAdapter(3, closed));
    await closing;
    expect(closed).toEqual(['close called', 'closed 3']);
  });
});
