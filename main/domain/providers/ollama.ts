import { z } from 'zod';

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';

const tagsSchema = z.object({
  models: z.array(
    z.object({
      name: z.string(),
      size: z.number().optional(),
      details: z.object({ family: z.string().optional(), parameter_size: z.string().optional() }).partial().optional(),
    }),
  ),
});

const showSchema = z.object({ capabilities: z.array(z.string()).optional() });

/** Models asked about their capabilities; a longer list is rare, and the rest stay "unknown". */
const MAX_MODELS_ASKED = 24;

/**
 * Whether Ollama says the model takes images (POST /api/show lists `capabilities`, "vision" among
 * them, since Ollama 0.6); undefined when it does not say (an older Ollama, an error).
 */
async function visionOf(
  root: string,
  model: string,
  timeoutMs: number,
  fetch: typeof globalThis.fetch,
): Promise<boolean | undefined> {
  try {
    const response = await fetch(`${root}/api/show`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return undefined;
    const parsed = showSchema.safeParse(await response.json());
    return parsed.success && parsed.data.capabilities !== undefined
      ? parsed.data.capabilities.includes('vision')
      : undefined;
  } catch {
    return undefined;
  }
}

export interface OllamaDetection {
  readonly running: boolean;
  /** The OpenAI-compatible base URL to save in the provider settings (…/v1). */
  readonly baseUrl: string;
  readonly models: { name: string; sizeBytes?: number; parameterSize?: string; family?: string; vision?: boolean }[];
}

/**
 * Asks Ollama's own API (GET /api/tags) which models are installed. Accepts the server root or its
 * /v1 URL. Not running, not Ollama, or too slow (local: 1.5 s is plenty) all mean `running: false`.
 */
export async function detectOllama(
  baseUrl = DEFAULT_OLLAMA_URL,
  timeoutMs = 1_500,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): Promise<OllamaDetection> {
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const notRunning: OllamaDetection = { running: false, baseUrl: `${root}/v1`, models: [] };
  try {
    const response = await fetch(`${root}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return notRunning;
    const parsed = tagsSchema.safeParse(await response.json());
    if (!parsed.success) return notRunning;
    const vision = await Promise.all(
      parsed.data.models.map((model, index) =>
        index < MAX_MODELS_ASKED ? visionOf(root, model.name, timeoutMs, fetch) : Promise.resolve(undefined),
      ),
    );
    return {
      running: true,
      baseUrl: `${root}/v1`,
      models: parsed.data.models.map((model, index) => ({
        name: model.name,
        ...(model.size === undefined ? {} : { sizeBytes: model.size }),
        ...(model.details?.parameter_size === undefined ? {} : { parameterSize: model.details.parameter_size }),
        ...(model.details?.family === undefined ? {} : { family: model.details.family }),
        ...(vision[index] === undefined ? {} : { vision: vision[index] }),
      })),
    };
  } catch {
    return notRunning;
  }
}
