import { AbortError } from '../../errors/index.js';
import type { AbortSource } from '../../internal/abort-link.js';

/**
 * Reads `audio` to its end and returns all its bytes joined. Rejects with AbortError as soon
 * as `signal` aborts, even while waiting on the caller's iterator (which is then closed with
 * `return()`). Errors of the caller's iterator propagate unchanged.
 */
export async function collectAudio(
  audio: AsyncIterable<Uint8Array>,
  signal: AbortSource,
): Promise<Uint8Array> {
  if (signal.aborted) throw new AbortError();
  const iterator = audio[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // One abort listener for the whole read, rejecting the step in flight: racing each step
  // against one long-lived promise would leave a reaction on it per chunk.
  let rejectStep: ((error: unknown) => void) | undefined;
  const onAbort = () => rejectStep?.(new AbortError());
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw new AbortError();
      const step = await new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
        rejectStep = reject;
        iterator.next().then(resolve, reject);
      });
      rejectStep = undefined;
      if (step.done) break;
      if (step.value.byteLength > 0) {
        chunks.push(step.value);
        total += step.value.byteLength;
      }
    }
  } catch (error) {
    if (AbortError.isInstance(error)) void Promise.resolve(iterator.return?.()).catch(() => {});
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
