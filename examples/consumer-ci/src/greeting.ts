import type { Router } from 'voxroute';

/** The code under test: asks the LLM for a greeting and speaks it; returns the text and the PCM bytes. */
export async function greet(router: Router): Promise<{ text: string; audioBytes: number }> {
  let text = '';
  for await (const event of router.chat({
    messages: [{ role: 'user', content: 'Greet the caller.' }],
    model: 'fast',
  })) {
    if (event.type === 'text-delta') text += event.text;
  }
  let audioBytes = 0;
  const format = { encoding: 'pcm_s16le', sampleRate: 24000 } as const;
  for await (const chunk of router.tts({ text, voice: 'agent', format })) audioBytes += chunk.data.byteLength;
  return { text, audioBytes };
}
