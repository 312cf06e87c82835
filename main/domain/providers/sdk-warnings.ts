import type { Logger } from '../../platform/logging/logger';

/**
 * The AI SDK prints its warnings with process.emitWarning by default; send them to Familiar's
 * logger (stderr, with a scope) instead. They describe settings, never request contents.
 */
export function routeAiSdkWarnings(logger: Logger): void {
  // The `ai` package declares this global (its LogWarningsFunction hook).
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => {
    for (const warning of warnings) {
      logger.warn(`AI SDK (${provider ?? '?'} / ${model ?? '?'}): ${JSON.stringify(warning).slice(0, 400)}`);
    }
  };
}
