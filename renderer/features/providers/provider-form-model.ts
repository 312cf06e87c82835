import type { ProviderStatus } from '../../../shared/ipc/providers';
import { providerSettingsSchema } from '../../../shared/settings';
import type { ProviderKind, ProviderSettings } from '../../../shared/settings';
import type { MessageKey } from '../../i18n/en';
import { providerKindInfo } from './provider-kinds';
import type { OllamaDetection } from './providers-store';

/** The form's fields as typed (numbers stay strings until submitted, so a half-typed value is kept). */
export interface ProviderFormValues {
  readonly kind: ProviderKind;
  readonly model: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly removeKey: boolean;
  readonly temperature: string;
  readonly maxSteps: string;
  readonly contextWindow: string;
  /** "Supports images", asked of OpenAI-compatible servers and Ollama (others are known by name). */
  readonly vision: boolean;
}

/** Kinds whose models only the user (or the server, when it says so) can vouch for taking images. */
export const asksVision = (kind: ProviderKind): boolean => kind === 'ollama' || kind === 'openai-compatible';

export type ProviderField = 'model' | 'baseUrl' | 'apiKey' | 'temperature' | 'maxSteps' | 'contextWindow';
export type FieldErrors = Partial<Record<ProviderField, MessageKey>>;

export function initialFormValues(status: ProviderStatus | null): ProviderFormValues {
  const provider = status?.provider ?? null;
  return {
    kind: provider?.kind ?? 'openai',
    model: provider?.model ?? '',
    baseUrl: provider?.baseUrl ?? '',
    apiKey: '',
    removeKey: false,
    temperature: provider?.temperature === undefined ? '' : String(provider.temperature),
    maxSteps: provider === null ? '' : String(provider.maxSteps),
    contextWindow: provider === null ? '' : String(provider.contextWindow),
    vision: provider?.vision === true,
  };
}

/** The values a detected Ollama suggests for a form nobody has touched yet. */
export function withDetectedOllama(values: ProviderFormValues, ollama: OllamaDetection): ProviderFormValues {
  const defaultUrl = providerKindInfo.ollama.defaultBaseUrl;
  return {
    ...values,
    kind: 'ollama',
    model: ollama.models[0]?.name ?? values.model,
    baseUrl: ollama.baseUrl === defaultUrl ? '' : ollama.baseUrl,
  };
}

/** A saved key for this kind is known only for the kind that is configured now. */
export const hasSavedKeyFor = (status: ProviderStatus | null, kind: ProviderKind): boolean =>
  status?.provider?.kind === kind && status.hasApiKey;

const fieldKeys: Record<ProviderField, MessageKey> = {
  model: 'provider.invalidModel',
  baseUrl: 'provider.invalidBaseUrl',
  apiKey: 'provider.keyRequired',
  temperature: 'provider.invalidTemperature',
  maxSteps: 'provider.invalidMaxSteps',
  contextWindow: 'provider.invalidContextWindow',
};

const numberOrUndefined = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

export type ProviderDraftResult =
  | {
      readonly ok: true;
      readonly provider: ProviderSettings;
      /** The key typed in the form, if any. */
      readonly apiKey: string | undefined;
      readonly removeKey: boolean;
    }
  | { readonly ok: false; readonly errors: FieldErrors };

/**
 * Checks the form against the contract's own schema and answers the settings to save or test.
 * `forSave` also demands a key for kinds that cannot work without one (a test may use a saved one).
 */
export function toProviderDraft(
  values: ProviderFormValues,
  status: ProviderStatus | null,
  options: { readonly forSave: boolean },
): ProviderDraftResult {
  const info = providerKindInfo[values.kind];
  const errors: FieldErrors = {};
  const candidate = {
    kind: values.kind,
    model: values.model.trim(),
    ...(values.baseUrl.trim() === '' ? {} : { baseUrl: values.baseUrl.trim() }),
    ...(numberOrUndefined(values.temperature) === undefined ? {} : { temperature: Number(values.temperature) }),
    ...(numberOrUndefined(values.maxSteps) === undefined ? {} : { maxSteps: Number(values.maxSteps) }),
    ...(numberOrUndefined(values.contextWindow) === undefined ? {} : { contextWindow: Number(values.contextWindow) }),
    ...(asksVision(values.kind) && values.vision ? { vision: true } : {}),
  };
  const parsed = providerSettingsSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && field in fieldKeys)
        errors[field as ProviderField] = fieldKeys[field as ProviderField];
    }
  }
  if (info.defaultBaseUrl === null && values.baseUrl.trim() === '') errors.baseUrl = 'provider.baseUrlRequired';
  const apiKey = info.keyAsked && values.apiKey.trim() !== '' ? values.apiKey.trim() : undefined;
  const removeKey = info.keyAsked && values.removeKey && apiKey === undefined;
  const keyMissing = apiKey === undefined && (removeKey || !hasSavedKeyFor(status, values.kind));
  if (options.forSave && info.keyRequired && keyMissing) errors.apiKey = 'provider.keyRequired';
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, provider: parsed.data, apiKey, removeKey };
}
