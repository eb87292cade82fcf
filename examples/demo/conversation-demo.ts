/**
 * The conversation demo as a function (examples/demo.ts prints it; the end-to-end test checks
 * it): two mock servers on free ports, examples/voxroute.config.ts pointed at them through
 * EC2_A_URL / EC2_B_URL, a warmed-up router, and one voiceTurn() per line of the script.
 */
import { resolve } from 'node:path';
import { createRouter, loadConfig, type Router, type RouterEvents } from 'voxroute';
import { type ConversationTurn, type FailedTurn, runConversation } from './conversation.js';
import { SCRIPT, startConversationServers, turnAudio } from './conversation-servers.js';

export interface ConversationDemo {
  /** The turns that were answered. */
  turns: ConversationTurn[];
  /** The turns that failed (no reply; the conversation went on). */
  failed: FailedTurn[];
  /** Every fallback the router reported, in order. */
  fallbacks: RouterEvents['fallback'][];
}

/** Runs the conversation. `configAlias`: where `voxroute` resolves for the TS config file. */
export async function runConversationDemo(options: {
  examplesDir: string;
  configAlias: string;
  /** The turns' budget, end of speech -> first audio, in ms. Default: 800. */
  budgetMs?: number;
  onFallback?: (event: RouterEvents['fallback']) => void;
}): Promise<ConversationDemo> {
  const servers = await startConversationServers();
  try {
    process.env.EC2_A_URL = servers.baseUrls[0];
    process.env.EC2_B_URL = servers.baseUrls[1];
    const config = await loadConfig(resolve(options.examplesDir, 'voxroute.config.ts'), {
      alias: { voxroute: options.configAlias },
    }).finally(() => {
      delete process.env.EC2_A_URL;
      delete process.env.EC2_B_URL;
    });
    const router = createRouter(config);
    const fallbacks: RouterEvents['fallback'][] = [];
    try {
      // Connections opened, the resampler loaded and the code paths run before the first turn:
      // warm-up turns, not reported, until latency routing has measured every provider warm (a
      // provider's first call is only an upper bound: it is tried once more). The servers'
      // scripts start over after each, so ec2-a goes wrong only in the conversation.
      await router.warmup();
      for (let i = 0; i < 6 && !measuredWarm(router); i++) {
        await runConversation(router, [turnAudio(0)]);
        servers.reset();
      }
      router.on('fallback', (e) => {
        fallbacks.push(e);
        options.onFallback?.(e);
      });
      const { turns, failed } = await runConversation(
        router,
        SCRIPT.map((_, k) => turnAudio(k)),
        { budgetMs: options.budgetMs ?? 800 },
      );
      return { turns, failed, fallbacks };
    } finally {
      await router.close();
    }
  } finally {
    await servers.close();
  }
}

/** True when every provider of every stage has answered at least twice (once after its first call). */
function measuredWarm(router: Router): boolean {
  const providers = router.stats().providers;
  return providers.length > 0 && providers.every((p) => p.samples >= 2);
}
