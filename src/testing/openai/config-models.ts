/**
 * The model ids an OpenAI-compatible provider section of a router config names, in order and
 * once each: its chat models' ids (`chat.models` values), then `tts.model` and `stt.model`.
 * What `startMockProviders` gives the provider's mock to list on `GET /models`.
 */
export function configModels(provider: {
  chat?: { models?: Record<string, unknown> };
  tts?: { model?: unknown };
  stt?: { model?: unknown };
}): string[] {
  const ids = [...Object.values(provider.chat?.models ?? {}), provider.tts?.model, provider.stt?.model];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))];
}
