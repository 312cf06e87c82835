import { pageApi as contract } from '../../test-support/page-api';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProviderStatus } from '../../../shared/ipc/providers';
import { err, ok } from '../../../shared/result';
import { configuredStatus, notConfigured } from '../../test-support/fixtures';
import { ProviderForm } from './ProviderForm';
import { initialProvidersState, useProvidersStore } from './providers-store';

const notRunning = () => ok({ running: false, baseUrl: 'http://127.0.0.1:11434/v1', models: [] });

function setup(status: ProviderStatus) {
  useProvidersStore.setState({ ...initialProvidersState(), status });
  const user = userEvent.setup();
  render(<ProviderForm />);
  return user;
}

beforeEach(() => {
  contract.reset({ 'providers.detectOllama': notRunning });
});

describe('ProviderForm', () => {
  it('suggests a running Ollama on first run and lists its models to pick from', async () => {
    contract.answer('providers.detectOllama', () =>
      ok({
        running: true,
        baseUrl: 'http://127.0.0.1:11434/v1',
        models: [{ name: 'llama3.2:3b', parameterSize: '3.2B', sizeBytes: 2_000_000_000 }, { name: 'qwen2.5:7b' }],
      }),
    );
    const user = setup(notConfigured());
    expect(await screen.findByText(/Ollama is running at http:\/\/127\.0\.0\.1:11434\/v1 with 2 model/)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Ollama (on this computer)' })).toHaveProperty('checked', true);
    expect(screen.getByRole('textbox', { name: 'Model' })).toHaveProperty('value', 'llama3.2:3b');
    // Ollama needs no key: the field is not offered.
    expect(screen.queryByLabelText('API key')).toBeNull();

    await user.click(screen.getByRole('button', { name: /qwen2\.5:7b/ }));
    expect(screen.getByRole('textbox', { name: 'Model' })).toHaveProperty('value', 'qwen2.5:7b');
    contract.answer('providers.save', ({ provider }) =>
      ok({ ...configuredStatus(), provider: { ...provider, maxSteps: 20, contextWindow: 128_000 } }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(contract.inputsOf('providers.save')).toEqual([
      { provider: { kind: 'ollama', model: 'qwen2.5:7b', maxSteps: 20, contextWindow: 128_000 } },
    ]);
    expect(await screen.findByText('Saved.')).toBeTruthy();
  });

  it('says when no Ollama runs, and looks again at the typed address', async () => {
    const user = setup(notConfigured());
    await user.click(screen.getByRole('radio', { name: 'Ollama (on this computer)' }));
    expect(await screen.findByText(/No running Ollama was found/)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Base URL' }), 'http://127.0.0.1:11500');
    await user.click(screen.getByRole('button', { name: 'Look for Ollama again' }));
    expect(contract.inputsOf('providers.detectOllama').at(-1)).toEqual({ baseUrl: 'http://127.0.0.1:11500' });
  });

  it('bounds the advanced numbers as main checks them and shows their defaults', () => {
    setup(notConfigured());
    const bounds = (name: string) => {
      const field = screen.getByRole('spinbutton', { name });
      return [field.getAttribute('min'), field.getAttribute('max'), field.getAttribute('placeholder')];
    };
    expect(bounds('Context window (tokens)')).toEqual(['1024', '10000000', '128000']);
    expect(bounds('Steps per message (model calls, tool round-trips included)')).toEqual(['1', '100', '20']);
    expect(bounds('Temperature').slice(0, 2)).toEqual(['0', '2']);
  });

  it('checks the fields before anything is sent', async () => {
    const user = setup(notConfigured());
    await user.click(screen.getByRole('radio', { name: 'OpenAI-compatible server' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter the model’s name.')).toBeTruthy();
    expect(screen.getByText('This provider needs a base URL.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Model' }).getAttribute('aria-invalid')).toBe('true');

    await user.click(screen.getByRole('radio', { name: 'OpenAI' }));
    await user.type(screen.getByRole('textbox', { name: 'Model' }), 'gpt-4.1-mini');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('This provider needs an API key.')).toBeTruthy();
    expect(contract.inputsOf('providers.save')).toEqual([]);
  });

  it('tests the connection with the key as typed and explains a rejected key', async () => {
    contract.answer('providers.test', () =>
      err('auth_failed', 'The API key was rejected (401). The provider said: Incorrect API key provided.', {
        retryable: false,
      }),
    );
    const user = setup(notConfigured('plaintext-file'));
    await user.click(screen.getByRole('radio', { name: 'Anthropic' }));
    await user.type(screen.getByRole('textbox', { name: 'Model' }), 'claude-sonnet-4-5');
    await user.type(screen.getByLabelText('API key'), 'sk-wrong');
    expect(screen.getByText(/Keys are stored unencrypted in secrets\.json/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(contract.inputsOf('providers.test')).toEqual([
      {
        provider: { kind: 'anthropic', model: 'claude-sonnet-4-5', maxSteps: 20, contextWindow: 128_000 },
        apiKey: 'sk-wrong',
      },
    ]);
    expect(await screen.findByText(/The provider rejected the API key/)).toBeTruthy();
    expect(screen.getByText(/Incorrect API key provided/)).toBeTruthy();
    expect(contract.inputsOf('providers.save')).toEqual([]);
  });

  it('reports a passing test with the model and its latency', async () => {
    contract.answer('providers.test', () => ok({ model: 'scripted-model', latencyMs: 42, sample: 'ready' }));
    const user = setup(configuredStatus());
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected: scripted-model answered in 42 ms.')).toBeTruthy();
  });

  it('never shows a saved key: it keeps it unless a new one is typed or removal is asked', async () => {
    const status = configuredStatus({
      provider: { kind: 'openai', model: 'gpt-4.1-mini', maxSteps: 20, contextWindow: 128_000 },
      hasApiKey: true,
      needsApiKey: true,
    });
    contract.answer('providers.save', () => ok(status));
    const user = setup(status);
    const key = screen.getByLabelText('API key');
    expect(key).toHaveProperty('value', '');
    expect(key.getAttribute('type')).toBe('password');
    expect(screen.getByText(/A key is saved/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(contract.inputsOf('providers.save').at(-1)).not.toHaveProperty('apiKey');

    await user.type(key, 'sk-new');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(contract.inputsOf('providers.save').at(-1)).toMatchObject({ apiKey: 'sk-new' });
    expect(key).toHaveProperty('value', '');
  });
});
