/**
 * Typos in what a test writes for the SageMaker emulator: a payload format, an option key or a
 * reply's field misspelt. Each is a TypeError naming the call, the field and what was meant when
 * the endpoint is made; before, the endpoint answered every call with a bare 500 ("gave no
 * reply"), or silently in another format (a TTS payload that is not `'raw-pcm'` was Cartesia SSE).
 */
import { describe, expect, it } from 'vitest';
import {
  createSageMakerMock,
  type SageMakerChatPayload,
  type SageMakerEndpoint,
  type SageMakerTtsPayload,
  sageMakerChatEndpoint,
  sageMakerChatReply,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
} from '../../../src/testing/index.js';

const signed = {
  authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/sagemaker/aws4_request, Signature=00',
};

describe('SageMaker emulator: typos in endpoints and replies are named when the endpoint is made', () => {
  it('a chat payload that is not a format: TypeError naming the formats and the one meant', () => {
    expect(() => sageMakerChatEndpoint({ payload: 'openai' as SageMakerChatPayload })).toThrow(
      new TypeError(
        `sageMakerChatEndpoint(options?): options.payload must be one of 'openai-chat', 'tgi', 'jsonlines', got "openai" (did you mean "openai-chat"?)`,
      ),
    );
    expect(() => sageMakerChatReply('json-lines' as SageMakerChatPayload, 'Hi')).toThrow(
      new TypeError(
        `sageMakerChatReply(payload, text).payload must be one of 'openai-chat', 'tgi', 'jsonlines', got "json-lines" (did you mean "jsonlines"?)`,
      ),
    );
  });

  it('a TTS payload that is not a format (it used to become Cartesia SSE): TypeError', () => {
    expect(() => sageMakerTtsEndpoint({ payload: 'raw_pcm' as SageMakerTtsPayload })).toThrow(
      new TypeError(
        `sageMakerTtsEndpoint(options): options.payload must be one of 'cartesia', 'raw-pcm', got "raw_pcm" (did you mean "raw-pcm"?)`,
      ),
    );
    expect(() => sageMakerTtsEndpoint({} as { payload: SageMakerTtsPayload })).toThrow(
      new TypeError(
        `sageMakerTtsEndpoint(options): options.payload must be one of 'cartesia', 'raw-pcm', got undefined`,
      ),
    );
  });

  it('an unknown option key of an endpoint helper: TypeError naming the key meant', () => {
    expect(() => sageMakerSttEndpoint({ partial: true } as never)).toThrow(
      new TypeError(
        'sageMakerSttEndpoint(options?): options has an unknown key "partial" (did you mean "partials"?); the keys are transcript, partials, script',
      ),
    );
    expect(() => sageMakerChatEndpoint({ scirpt: {} } as never)).toThrow(
      new TypeError(
        'sageMakerChatEndpoint(options?): options has an unknown key "scirpt" (did you mean "script"?); the keys are payload, reply, script',
      ),
    );
  });

  it('a hand-written reply with a misspelt field, or an endpoint without reply: TypeError from createSageMakerMock', () => {
    const endpoint = (value: unknown) => value as SageMakerEndpoint;
    expect(() => createSageMakerMock({ endpoints: { llm: endpoint({ reply: { part: ['a'] } }) } })).toThrow(
      new TypeError(
        'createSageMakerMock: options.endpoints.llm.reply has an unknown key "part" (did you mean "parts"?); the keys are parts, closing, contentType',
      ),
    );
    expect(() =>
      createSageMakerMock({ endpoints: { llm: endpoint({ reply: [{ parts: ['a'] }, { parts: [1] }] }) } }),
    ).toThrow(
      new TypeError(
        'createSageMakerMock: options.endpoints.llm.reply.1.parts.0 must be a string or a Uint8Array, got number',
      ),
    );
    expect(() => createSageMakerMock({ endpoints: { llm: endpoint({ replies: { parts: [] } }) } })).toThrow(
      new TypeError(
        'createSageMakerMock: options.endpoints.llm has an unknown key "replies"; the keys are reply, script, duplex',
      ),
    );
    expect(() => createSageMakerMock({ endpoints: { llm: endpoint({}) } })).toThrow(
      new TypeError(
        'createSageMakerMock: options.endpoints.llm.reply must be a reply object ({ parts, closing?, contentType? }), got undefined',
      ),
    );
  });

  it('a reply function whose result is not a reply: that call gets a 500 whose message says what is wrong', async () => {
    const mock = createSageMakerMock({
      endpoints: {
        llm: { reply: ({ call }) => (call === 1 ? ({ part: ['a'] } as never) : { parts: ['ok'] }) },
      },
    });
    const invoke = () =>
      mock.handle(
        new Request('http://sm.test/endpoints/llm/invocations', {
          method: 'POST',
          headers: signed,
          body: '{}',
        }),
      );
    const first = await invoke();
    expect([first.status, first.headers.get('x-amzn-errortype'), await first.json()]).toEqual([
      500,
      'InternalFailure',
      {
        message:
          'voxroute SageMaker emulator failed: endpoint llm: the reply of call 1 has an unknown key "part" (did you mean "parts"?); the keys are parts, closing, contentType',
      },
    ]);
    const second = await invoke();
    expect([second.status, await second.text()]).toEqual([200, 'ok']);
  });
});
