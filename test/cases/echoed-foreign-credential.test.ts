/**
 * A credential the config does not hold, echoed by a provider: a gateway quoting its upstream
 * key, a server repeating the token it was given. Only the router's own secrets were redacted,
 * so a GitHub token, a JWT after `Bearer`, an AWS key pair or another `sk-proj-` key reached
 * ProviderError and AllProvidersFailedError messages (and logs) as sent. Errors built from
 * provider bytes now lose anything shaped like a credential too (the shapes config errors
 * already redacted), while the ids the config names stay readable even when they look random
 * (a voice UUID, an ElevenLabs-style voice id). The server speaks OpenAI's wire on its own.
 */
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

const VOICE_UUID = 'a0e99841-438c-4a64-b679-ae501e7d6091';
const VOICE_ID = '21m00Tcm4TlvDq8ikWAM';

/** What a provider echoes, and that text as every error must show it. */
/*
 * Fake credentials in the shapes providers echo, put together at run time so that no
 * key-shaped literal sits in the repository (AWS's documented example key pair among them).
 */
const GITHUB_TOKEN = ['ghp', 'abcdefghijklmnopqrstuvwxyz0123456789'].join('_');
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxIn0', 'c2lnbmF0dXJl'].join('.');
const AWS_KEY_ID = ['AKIA', 'IOSFODNN7EXAMPLE'].join('');
const AWS_SECRET = ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'].join('/');
const PROJECT_KEY = ['sk', 'proj', 'Zx9Qw8Er7Ty6Ui5Op4As3Df2'].join('-');
const GOOGLE_KEY = ['AIza', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'].join('');

const ECHOES: Array<[string, string, string]> = [
  ['a GitHub token', `token ${GITHUB_TOKEN} rejected`, '[redacted] rejected'],
  ['a JWT after Bearer', `Authorization: Bearer ${JWT}`, 'Authorization: [redacted]'],
  ['a bare JWT', `session ${JWT} expired`, 'session [redacted] expired'],
  ['an AWS key pair', `${AWS_KEY_ID} secret ${AWS_SECRET}`, '[redacted] secret [redacted]'],
  [
    'another OpenAI project key',
    `upstream key ${PROJECT_KEY} is invalid`,
    'upstream key [redacted] is invalid',
  ],
  ['a Google API key', `key ${GOOGLE_KEY} is not valid`, 'key [redacted] is not valid'],
];

describe('a provider echoes a credential the config does not hold', () => {
  it.each(ECHOES)(
    'secret-echo-foreign (%s): redacted in every error, config ids kept',
    async (_name, echo, shown) => {
      const wire = await httpServer((_req, res) => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: `${echo} (voice ${VOICE_UUID}, ${VOICE_ID})`, type: 'x' } }),
        );
      });
      const r = router({
        providers: {
          a: {
            kind: 'openai-compatible',
            baseUrl: `${wire.url}/v1`,
            apiKey: 'sk-configured-key-0123456789',
            tts: { voices: { v: VOICE_UUID, w: VOICE_ID } },
          },
        },
        routes: { tts: { providers: ['a'] } },
      });
      const { error } = await drain(r.tts({ text: 'Hi.', voice: 'v' }));
      expect(AllProvidersFailedError.isInstance(error)).toBe(true);
      const failed = error as AllProvidersFailedError;
      const cause = failed.attempts[0]?.error;
      expect(ProviderError.isInstance(cause)).toBe(true);
      const seen = [
        failed.message,
        String(failed.stack),
        (cause as Error).message,
        String((cause as Error).stack),
      ];
      const secrets = echo.match(/ghp_\S+|eyJ\S+|AKIA\S+|wJal\S+|sk-proj-\S+|AIza\S+/g) ?? [];
      expect(secrets.length).toBeGreaterThan(0);
      // No piece of a credential is left either (the one-letter provider name `a` inside several
      // of them must not split them): only the text around them remains.
      const pieces = secrets.flatMap((x) => x.split(/[^A-Za-z0-9]+/)).filter((p) => p.length >= 6);
      for (const text of seen) {
        for (const secret of secrets) expect(text).not.toContain(secret);
        expect(text).toContain('[redacted]');
      }
      for (const secret of secrets) expect(JSON.stringify(failed)).not.toContain(secret);
      for (const piece of pieces) expect((cause as Error).message).not.toContain(piece);
      // Exactly the text around each credential is left (the provider's one-letter name `a`,
      // inside several of them, must not split them), and the config's ids are kept.
      expect((cause as Error).message).toContain(`${shown} (voice ${VOICE_UUID}, ${VOICE_ID})`);
      await r.close();
    },
  );
});
