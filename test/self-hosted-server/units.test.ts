import { describe, expect, it } from 'vitest';
import { ApiError } from '../../examples/self-hosted-server/api-error.js';
import { findExecutable, pocketsphinxCli } from '../../examples/self-hosted-server/engines.js';
import { pocketsphinxArgs, recognisedText } from '../../examples/self-hosted-server/pocketsphinx.js';
import {
  COUNTRY_REPLY,
  countWords,
  EMPTY_REPLY,
  replyTo,
  streamPieces,
} from '../../examples/self-hosted-server/responder.js';
import { parseSpeech } from '../../examples/self-hosted-server/speech-params.js';

describe('responder', () => {
  it('answers any mention of country with the fixed reply, in any case', () => {
    expect(replyTo('what your COUNTRY can do for you')).toBe(COUNTRY_REPLY);
  });

  it('echoes other text with collapsed spaces and no trailing punctuation', () => {
    expect(replyTo('  Is it   raining?! ')).toBe('I heard: Is it raining. How can I help?');
    expect(replyTo('???')).toBe('I heard: ???. How can I help?');
    expect(replyTo(' \n ')).toBe(EMPTY_REPLY);
  });

  it('splits a reply into word pieces that join back to it', () => {
    expect(streamPieces('I heard: hi. How')).toEqual(['I', ' heard:', ' hi.', ' How']);
    expect(streamPieces(COUNTRY_REPLY).join('')).toBe(COUNTRY_REPLY);
    expect(streamPieces('')).toEqual([]);
    expect(countWords(' a  b c ')).toBe(3);
  });
});

describe('parseSpeech', () => {
  it('maps OpenAI voices and speed, and defaults to wav', () => {
    expect(parseSpeech({ input: 'Hi.', voice: 'onyx', speed: 1.5 })).toEqual({
      input: 'Hi.',
      voice: 'en-us+m4',
      requestedVoice: 'onyx',
      format: 'wav',
      wordsPerMinute: 263,
    });
    expect(parseSpeech({ input: 'Hi.', voice: { id: 'fr' }, response_format: 'pcm' })).toMatchObject({
      voice: 'fr',
      format: 'pcm',
      wordsPerMinute: 175,
    });
    expect(parseSpeech({ input: 'Hi.' }).voice).toBe('en-us');
  });

  it('throws ApiError 400 naming the param', () => {
    const error = (() => {
      try {
        parseSpeech({ input: 'Hi.', speed: '2' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).toBody()).toEqual({
      error: {
        message: "'speed' must be a number from 0.25 to 4.0.",
        type: 'invalid_request_error',
        param: 'speed',
        code: 'invalid_value',
      },
    });
  });
});

describe('pocketsphinx output', () => {
  it('builds the arguments of each CLI flavour', () => {
    expect(pocketsphinxArgs('continuous', '/t/in.wav', '/t/ps.log')).toEqual([
      '-infile',
      '/t/in.wav',
      '-logfn',
      '/t/ps.log',
    ]);
    expect(pocketsphinxArgs('v5', '/t/in.wav', '/t/ps.log')).toEqual([
      '-logfn',
      '/t/ps.log',
      'live',
      '/t/in.wav',
    ]);
    expect(pocketsphinxCli('/usr/bin/pocketsphinx_continuous')).toBe('continuous');
    expect(pocketsphinxCli('/usr/local/bin/pocketsphinx')).toBe('v5');
  });

  it('reads plain lines and v5 JSON lines, skipping empty ones', () => {
    expect(recognisedText('continuous', '  what your country can do for you \r')).toBe(
      'what your country can do for you',
    );
    expect(recognisedText('continuous', '   ')).toBeUndefined();
    expect(recognisedText('v5', '{"b":0.1,"d":1,"p":1,"t":"ask not","w":[]}')).toBe('ask not');
    expect(recognisedText('v5', '{"b":0.1,"t":""}')).toBeUndefined();
    expect(recognisedText('v5', '{broken')).toBe('{broken');
  });
});

describe('findExecutable', () => {
  it('finds a command on PATH and refuses a missing path or a directory', async () => {
    expect(await findExecutable('sh', '/nonexistent:/bin:/usr/bin')).toMatch(/^\/(usr\/)?bin\/sh$/);
    expect(await findExecutable('sh', '/nonexistent')).toBeUndefined();
    expect(await findExecutable('/nonexistent/espeak-ng')).toBeUndefined();
    expect(await findExecutable('/tmp')).toBeUndefined();
  });
});
