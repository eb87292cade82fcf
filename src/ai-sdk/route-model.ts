import type { Router } from 'voxroute';

/**
 * What voxroute's AI SDK models (language, speech, transcription; specification v4) share:
 * the router they call, the model id the AI SDK passes, and the model's options.
 */
export abstract class RouteModel<Options extends { route?: string | undefined }> {
  /** The AI SDK provider specification this model implements: `'v4'`. */
  readonly specificationVersion = 'v4';

  constructor(
    protected readonly router: Router,
    /**
     * The id the model was made with: a logical model name of the router config (language
     * model), the default logical voice (speech model) or the route to call (transcription model).
     */
    readonly modelId: string,
    protected readonly options: Options = {} as Options,
  ) {}
}
