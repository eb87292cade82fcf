import { describe, expect, it } from 'vitest';
import { encodeMultipart } from '../../../src/providers/openai/multipart.js';

describe('encodeMultipart', () => {
  it('encodes text fields and a file part byte for byte', () => {
    const { body, contentType, boundary } = encodeMultipart(
      [
        {
          name: 'file',
          filename: 'audio.wav',
          contentType: 'audio/wav',
          data: new Uint8Array([0, 13, 10, 255]),
        },
        { name: 'model', value: 'whisper-1' },
      ],
      'XyZ',
    );
    expect(boundary).toBe('XyZ');
    expect(contentType).toBe('multipart/form-data; boundary=XyZ');
    const expected = Buffer.concat([
      Buffer.from(
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="audio.wav"\r\nContent-Type: audio/wav\r\n\r\n',
      ),
      Buffer.from([0, 13, 10, 255]),
      Buffer.from(
        '\r\n--XyZ\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--XyZ--\r\n',
      ),
    ]);
    expect(Buffer.from(body).equals(expected)).toBe(true);
  });

  it('draws a fresh random boundary each time', () => {
    const a = encodeMultipart([{ name: 'x', value: '1' }]);
    const b = encodeMultipart([{ name: 'x', value: '1' }]);
    expect(a.boundary).toMatch(/^----voxroute[0-9a-f]{24}$/);
    expect(a.boundary).not.toBe(b.boundary);
  });

  it('rejects a field name that would break the header', () => {
    expect(() => encodeMultipart([{ name: 'a"b', value: '1' }])).toThrow(TypeError);
    expect(() =>
      encodeMultipart([{ name: 'f', filename: 'x\r\ny', contentType: 'a/b', data: new Uint8Array() }]),
    ).toThrow(TypeError);
  });
});
