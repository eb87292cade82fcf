/**
 * A file part of a multipart form, as received.
 *
 * @example
 * ```ts
 * const file = mock.requests[0]!.form!.file as RecordedFile; // { filename: 'a.wav', contentType: 'audio/wav', bytes }
 * ```
 */
export interface RecordedFile {
  /** The part's filename, `''` when none was sent. */
  filename: string;
  /** The part's Content-Type, `''` when none was sent. */
  contentType: string;
  /** The file's bytes, exactly as received. */
  bytes: Uint8Array;
}

/**
 * One value of a recorded form field: a string, or a {@link RecordedFile} for a file part.
 *
 * @example
 * ```ts
 * const stream: RecordedFormValue | undefined = record.form?.stream as RecordedFormValue; // 'true'
 * ```
 */
export type RecordedFormValue = string | RecordedFile;

/**
 * How a request's exchange ended, as seen by the mock: `'completed'` (the whole response was
 * handed over, error statuses included), `'aborted'` (the client went away first), `'reset'`
 * (the script reset the connection), or `'pending'` while it goes on.
 *
 * @example
 * ```ts
 * expect(await record.ended).toBe('aborted' satisfies RequestOutcome);
 * ```
 */
export type RequestOutcome = 'pending' | 'completed' | 'aborted' | 'reset';

/**
 * What a mock received and did for one request. The mock fills it in as the exchange goes
 * on: `status` when the headers go out, `chunksSent` per body chunk, `outcome` at the end.
 * Await `ended` before asserting on the end of an exchange.
 *
 * @example
 * ```ts
 * const [first] = server.requests;
 * await first!.ended;
 * expect(first).toMatchObject({ path: '/v1/audio/speech', aborted: true, chunksSent: 2 });
 * ```
 */
export interface RecordedRequest {
  /** The endpoint's short name: `'chat'`, `'speech'`, `'transcription'`, or `'unknown'`. */
  endpoint: string;
  /** 1-based number of this call on its endpoint. */
  call: number;
  /** HTTP method, upper case. */
  method: string;
  /** URL path, e.g. `/v1/chat/completions`. */
  path: string;
  /** The whole URL. */
  url: string;
  /** Request headers with lower-cased names (values as received, so Authorization too). */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when it was not valid JSON; undefined for forms and no body. */
  body?: unknown;
  /** Multipart form fields; a field sent more than once holds an array, in order. */
  form?: Record<string, RecordedFormValue | RecordedFormValue[]>;
  /** When the request reached the mock, in ms from the mock's clock (`performance.now()` by default). */
  receivedAtMs: number;
  /** Status of the response sent; undefined before the headers go out, or when reset before them. */
  status?: number;
  /** Body chunks sent (see MockScript for what a chunk is). */
  chunksSent: number;
  /** True when the client went away before the response ended. */
  aborted: boolean;
  /** How the exchange ended; `'pending'` until it does. */
  outcome: RequestOutcome;
  /** Resolves with the outcome once the exchange has ended. */
  ended: Promise<RequestOutcome>;
}

/** A new record with `outcome: 'pending'`; `finish` settles it (only the first call counts). */
export function createRecord(fields: Omit<RecordedRequest, 'chunksSent' | 'aborted' | 'outcome' | 'ended'>): {
  record: RecordedRequest;
  finish: (outcome: Exclude<RequestOutcome, 'pending'>) => void;
} {
  let settle!: (outcome: RequestOutcome) => void;
  const ended = new Promise<RequestOutcome>((resolve) => {
    settle = resolve;
  });
  const record: RecordedRequest = { ...fields, chunksSent: 0, aborted: false, outcome: 'pending', ended };
  const finish = (outcome: Exclude<RequestOutcome, 'pending'>) => {
    if (record.outcome !== 'pending') return;
    record.outcome = outcome;
    if (outcome === 'aborted') record.aborted = true;
    settle(outcome);
  };
  return { record, finish };
}
