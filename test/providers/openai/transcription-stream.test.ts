import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/index.js';
import { TranscriptAssembler } from '../../../src/providers/shared/openai-wire/transcription-stream.js';

describe('TranscriptAssembler', () => {
  it('OpenAI dialect: partials carry the text so far, done gives the final', () => {
    const a = new TranscriptAssembler('p', true, 1500);
    expect(a.push({ type: 'transcript.text.delta', delta: ' I' })).toEqual({
      events: [{ type: 'partial', text: 'I', startMs: 0 }],
      done: false,
    });
    expect(a.push({ type: 'transcript.text.delta', delta: ' see' }).events).toEqual([
      { type: 'partial', text: 'I see', startMs: 0 },
    ]);
    expect(a.push({ type: 'transcript.text.delta', delta: ' ' }).events).toEqual([]);
    expect(a.push({ type: 'transcript.text.done', text: 'I see skies.' })).toEqual({
      events: [{ type: 'final', text: 'I see skies.', startMs: 0, endMs: 1500 }],
      done: true,
    });
  });

  it('no partials without interim', () => {
    const a = new TranscriptAssembler('p', false, 10);
    expect(a.push({ type: 'transcript.text.delta', delta: 'x' }).events).toEqual([]);
    expect(a.hadOutput).toBe(false);
  });

  it('vLLM dialect: the final joins the deltas at [DONE], or at end of body after a finish reason', () => {
    const a = new TranscriptAssembler('p', false, 20);
    a.push({ object: 'transcription.chunk', choices: [{ delta: { content: ' And so' } }] });
    a.push({ object: 'transcription.chunk', choices: [{ delta: { content: ', my fellow' } }] });
    expect(a.end('done')).toEqual([{ type: 'final', text: 'And so, my fellow', startMs: 0, endMs: 20 }]);
    const b = new TranscriptAssembler('p', false, 20);
    b.push({ object: 'transcription.chunk', choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }] });
    expect(b.end('eof')).toEqual([{ type: 'final', text: 'x', startMs: 0, endMs: 20 }]);
  });

  it('an end of body with no end marker is truncated', () => {
    const a = new TranscriptAssembler('p', true, 20);
    a.push({ type: 'transcript.text.delta', delta: 'half' });
    expect(() => a.end('eof')).toThrow(ProtocolError);
    try {
      a.end('eof');
    } catch (e) {
      expect(e).toMatchObject({
        code: 'PROTOCOL_ERROR',
        retryable: true,
        partialOutput: true,
        provider: 'p',
      });
    }
  });
});
