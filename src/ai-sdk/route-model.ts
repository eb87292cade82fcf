import type { Router } from '../routing/router.js';

/**
 * What voxroute's AI SDK models (language, speech, transcription; specification v4) share:
 * the router they call, the model id the AI SDK passes, and the model's options.
 */
export abstract class RouteModel<Options extends { route?: string }> {
  readonly specificationVersion = 'v4';

  constructor(
    protected readonly router: Router,
    readonly modelId: string,
    protected readonly options: Options = {} as Options,
  ) {}
}
