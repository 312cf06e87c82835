/**
 * Environment variables that carry provider credentials. Familiar never reads keys from the
 * environment (keys come only from the secret store), but a user's shell may export them: a child
 * process the assistant starts (run_command, git) must not inherit them, or a model could print them.
 */
export function secretEnvNames(): readonly string[] {
  return [
    'OPENAI_API_KEY',
    'OPENAI_ORG_ID',
    'OPENAI_PROJECT_ID',
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'AI_GATEWAY_API_KEY',
    'OPENROUTER_API_KEY',
    'OLLAMA_API_KEY',
  ];
}

/** A copy of `env` without the credential variables, for spawning child processes. */
export function withoutSecretEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of secretEnvNames()) delete copy[name];
  return copy;
}
