/*
 * Shapes of credentials, redacted wherever they stand, whether or not the config names them:
 * in config error messages, and in every error built from what a provider sent (a gateway that
 * quotes its upstream key, a server that echoes a token it was given).
 */

/** What a secret is replaced with in errors. */
export const REDACTED_TEXT = '[redacted]';

/** Not a letter or digit before/after a key (`_` counts as an edge: `sk_...`, `name_KEY`). */
const L = '(?<![A-Za-z0-9])';
const R = '(?![A-Za-z0-9])';

/** Shapes of well-known API keys and credentials, redacted even when no config names them. */
const KEY_SHAPES = [
  // Prefixed keys: OpenAI `sk-`/`sk-proj-`, ElevenLabs `sk_`, Cartesia `sk_car_`, Groq `gsk_`,
  // Stripe-style `pk_`/`rk_`, xAI `xai-`: a body of 16+ characters with a digit.
  new RegExp(`${L}(?:sk|pk|rk|gsk|xai)[-_](?=[A-Za-z0-9_-]*\\d)[A-Za-z0-9_-]{16,}`, 'g'),
  // AWS access key ids.
  new RegExp(`${L}(?:AKIA|ASIA)[0-9A-Z]{16}${R}`, 'g'),
  // `Bearer <credential>`: a credential starts with a letter or digit, so the absolute path
  // after jiti's "Unexpected token" (`/app/voxroute.config.ts:2:0`) is not taken for one.
  /\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9][A-Za-z0-9._~+/=-]{7,}/gi,
  // GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), Google API keys
  // (`AIza` + 35), Slack tokens (`xoxb-`, `xoxp-`...).
  new RegExp(
    `${L}(?:gh[opusr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|AIza[0-9A-Za-z_-]{35}|xox[abposr]-[A-Za-z0-9-]{10,})`,
    'g',
  ),
  // JSON Web Tokens: three base64url parts, the first two of them JSON objects (`eyJ`).
  new RegExp(`${L}eyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*`, 'g'),
  // Hex keys (Deepgram: 40 hex digits), either case.
  new RegExp(`${L}(?=[0-9a-fA-F]*\\d)(?:[0-9a-f]{32,}|[0-9A-F]{32,})${R}`, 'g'),
];

/** A run of key characters (base64, base64url, `_`, `-`) long enough to be a secret. */
const TOKEN = /[A-Za-z0-9/+=_-]{20,}/g;

/**
 * A word-like piece of a name between `-`, `_`, `/`, `+`, `=`: a lowercase, Capitalized or
 * camelCase word with up to 4 trailing digits (`east`, `Sonic`, `firstChunk`, `v3`, `ec2`),
 * an acronym with digits (`GPT4`, `US`) or a number.
 */
const WORDY = /^(?:[A-Za-z][a-z]*(?:[A-Z][a-z]+)*\d{0,4}[a-z]?|[A-Z]{1,6}\d{0,4}|\d+)$/;

/** Characters of pieces that are not word-like, from which a token is taken for a secret. */
const MIN_RANDOM_CHARS = 12;

/**
 * True when `token` (20+ key characters) looks random rather than like a name: it has letters
 * and digits, and its pieces that are not word-like hold {@link MIN_RANDOM_CHARS}+ characters
 * (an AWS secret access key: 40 characters of letters, digits, `/` and `+`; not `deepgram-nova-3-us-east-1`).
 */
function looksRandom(token: string): boolean {
  if (!/\d/.test(token) || !/[A-Za-z]/.test(token)) return false;
  let random = 0;
  for (const piece of token.split(/[-_/+=]+/)) if (!WORDY.test(piece)) random += piece.length;
  return random >= MIN_RANDOM_CHARS;
}

/** Shorter ids are not kept: they may be a piece of a credential. */
const MIN_KEPT_LENGTH = 6;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` with anything shaped like a well-known API key or credential replaced by `[redacted]`:
 * prefixed keys (`sk-`, `sk_`, `pk_`, `gsk_`, GitHub `ghp_`..., Google `AIza`, Slack `xox?-`),
 * AWS access key ids, JSON Web Tokens, `Bearer`/`Basic`/`Token` credentials, 32+ hex digits,
 * and any 20+ character token of key characters that looks random (letters and digits in
 * pieces that are not words). Names (`openai-east-2`, `cartesia_sonic`) stay as they are, and
 * so does each of `keep` of 6+ characters standing whole (not inside a longer run of key
 * characters: ids the config itself names, a voice id, an endpoint name), even when it looks
 * random.
 */
export function redactKeyShapes(text: string, keep?: readonly string[]): string {
  const kept: string[] = [];
  let work = text;
  if (keep)
    for (const name of keep) {
      // Only a whole id of 6+ characters, not one inside a longer run of key characters: a
      // name that is part of a credential must not break the credential's shape.
      if (name.length < MIN_KEPT_LENGTH || !work.includes(name)) continue;
      const whole = new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(name)}(?![A-Za-z0-9_-])`, 'g');
      const next = work.replace(whole, `\uE000${kept.length}\uE000`);
      if (next === work) continue;
      // A private-use character no key shape contains stands in for the id while shapes are found.
      work = next;
      kept.push(name);
    }
  const shaped = KEY_SHAPES.reduce((acc, shape) => acc.replace(shape, REDACTED_TEXT), work);
  const out = shaped.replace(TOKEN, (token) => (looksRandom(token) ? REDACTED_TEXT : token));
  return kept.length === 0 ? out : out.replace(/\uE000(\d+)\uE000/g, (_, i: string) => kept[Number(i)]!);
}
