import { CONFIG_OPTION, intOption, parseCommandArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadCliConfig } from '../config-file.js';
import type { CliContext } from '../context.js';
import { EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { startProgress } from '../progress.js';
import { describeResult, openRouter, pickName, pickRoute } from '../router-call.js';

/**
 * `voxroute chat PROMPT [--model NAME] [--system TEXT] [--max-tokens N] [--route NAME] [-c FILE]`:
 * streams the reply to stdout as it comes, then a newline; a summary line goes to stderr.
 */
export async function chatCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'chat',
    argv,
    {
      ...CONFIG_OPTION,
      model: { type: 'string' },
      system: { type: 'string' },
      'max-tokens': { type: 'string' },
      route: { type: 'string' },
    },
    1,
  );
  const prompt = positionals[0];
  if (!prompt) throw new CliError("chat: give a prompt, e.g. voxroute chat 'Say hello'", EXIT_USAGE);
  const maxTokens =
    values['max-tokens'] === undefined ? undefined : intOption('chat', 'max-tokens', values['max-tokens'], 1);
  const { config } = await loadCliConfig(ctx, values.config);
  const route = pickRoute(config, 'chat', values.route);
  const model = pickName(config, route, 'chat', values.model);
  const router = await openRouter(ctx, config);
  const progress = startProgress(ctx, `waiting for the reply on route '${route}'`);
  try {
    const stream = router.chat({
      route,
      model,
      messages: [
        ...(values.system ? [{ role: 'system' as const, content: values.system }] : []),
        { role: 'user', content: prompt },
      ],
      ...(maxTokens !== undefined ? { maxTokens } : {}),
    });
    for await (const event of stream) {
      progress.done();
      if (event.type === 'text-delta') ctx.stdout(event.text);
      else if (event.type === 'tool-call') ctx.stdout(`\n[tool call ${event.name} ${event.arguments}]\n`);
    }
    ctx.stdout('\n');
    ctx.stderr(`voxroute: ${describeResult(await stream.result)}\n`);
    return EXIT_OK;
  } finally {
    progress.done();
    await router.close();
  }
}
