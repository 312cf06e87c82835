// The AI SDK's provider packages, loaded by the first model or embedder made (loadProviderSdks in
// language-model.ts): at every start of the app and of the MCP server, which makes none, they cost
// ~50 ms of module loading.
export { createAnthropic } from '@ai-sdk/anthropic';
export { createOpenAI } from '@ai-sdk/openai';
export { createOpenAICompatible } from '@ai-sdk/openai-compatible';
