import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { FamiliarError } from '../../../shared/errors';
import { providerKinds, providerSettingsSchema } from '../../../shared/settings';
import type { ProviderKind } from '../../../shared/settings';
import type { MessageKey } from '../../i18n/en';
import { useT } from '../../i18n/i18n';
import { ConnectionTestStatus } from './ConnectionTestStatus';
import type { ConnectionTestState } from './ConnectionTestStatus';
import { OllamaModelPicker } from './OllamaModelPicker';
import { providersActions } from './provider-actions';
import { errorMessageKey } from './provider-error-text';
import {
  asksVision,
  hasSavedKeyFor,
  initialFormValues,
  toProviderDraft,
  withDetectedOllama,
} from './provider-form-model';
import type { FieldErrors, ProviderField, ProviderFormValues } from './provider-form-model';
import { providerKindInfo } from './provider-kinds';
import { useProvidersStore } from './providers-store';
import { useStoreFields } from '../../app/use-store-fields';
import { boundsOf } from '../settings/WholeNumberField';
import './providers.css';

const kindLabels: Record<ProviderKind, MessageKey> = {
  openai: 'provider.kindOpenai',
  anthropic: 'provider.kindAnthropic',
  ollama: 'provider.kindOllama',
  'openai-compatible': 'provider.kindCompatible',
};

interface FieldProps {
  readonly id: string;
  readonly label: string;
  readonly error: MessageKey | undefined;
  readonly hint?: ReactNode;
  readonly children: ReactNode;
}

/** A labelled field with its hint and error, wired to the input through ids. */
function Field({ id, label, error, hint, children }: FieldProps) {
  const t = useT();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint !== undefined && (
        <div id={`${id}-hint`} className="field-hint">
          {hint}
        </div>
      )}
      {error !== undefined && (
        <p id={`${id}-error`} className="field-error">
          {t(error)}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, hasHint: boolean, error: MessageKey | undefined) =>
  [hasHint ? `${id}-hint` : '', error === undefined ? '' : `${id}-error`].filter(Boolean).join(' ') || undefined;

const { temperature, maxSteps, contextWindow } = providerSettingsSchema.shape;

/**
 * The advanced numbers: each an optional field with the bounds and default (its placeholder) of
 * the schema main checks a saved provider with; the temperature's default is the model's own.
 */
const advancedFields: readonly {
  readonly name: 'temperature' | 'maxSteps' | 'contextWindow';
  readonly label: MessageKey;
  readonly min: number;
  readonly max: number;
  readonly step?: number;
  /** The default, as a number or (placeholderKey) in words. */
  readonly placeholder?: string;
  readonly placeholderKey?: MessageKey;
}[] = [
  {
    name: 'temperature',
    label: 'provider.temperature',
    ...boundsOf(temperature),
    step: 0.1,
    placeholderKey: 'provider.temperatureDefault',
  },
  {
    name: 'maxSteps',
    label: 'provider.maxSteps',
    ...boundsOf(maxSteps),
    placeholder: String(maxSteps.parse(undefined)),
  },
  {
    name: 'contextWindow',
    label: 'provider.contextWindow',
    ...boundsOf(contextWindow),
    step: 1024,
    placeholder: String(contextWindow.parse(undefined)),
  },
];

interface ProviderFormProps {
  /** Called after a successful save. */
  readonly onSaved?: () => void;
}

/**
 * Provider, model, base URL and API key, with Ollama detection, "Test connection" and Save. The key
 * field is write-only: the core only ever says whether a key is saved.
 */
export function ProviderForm({ onSaved }: ProviderFormProps) {
  const t = useT();
  const id = useId();
  const { status, ollama } = useStoreFields(['status', 'ollama'], useProvidersStore);
  const [values, setValues] = useState<ProviderFormValues>(() => initialFormValues(status));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [test, setTest] = useState<ConnectionTestState>({ state: 'idle' });
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<FamiliarError | null>(null);
  const [saved, setSaved] = useState(false);
  const touched = useRef(false);
  const info = providerKindInfo[values.kind];
  const savedKey = hasSavedKeyFor(status, values.kind);

  useEffect(() => {
    if (useProvidersStore.getState().ollama.state === 'idle') void providersActions.detectOllama();
  }, []);

  // First run with a local Ollama: suggest it, unless the user already started choosing.
  const found = ollama.found;
  useEffect(() => {
    if (found?.running === true && status?.provider === null && !touched.current) {
      setValues((current) => withDetectedOllama(current, found));
    }
  }, [found, status?.provider]);

  const change = (patch: Partial<ProviderFormValues>) => {
    touched.current = true;
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch)) delete next[field as ProviderField];
      return next;
    });
    setTest({ state: 'idle' });
    setSaved(false);
  };

  const runTest = async () => {
    const draft = toProviderDraft(values, status, { forSave: false });
    if (!draft.ok) {
      setErrors(draft.errors);
      return;
    }
    setTest({ state: 'testing' });
    const result = await providersActions.test({
      provider: draft.provider,
      ...(draft.apiKey === undefined ? {} : { apiKey: draft.apiKey }),
    });
    setTest(result.ok ? { state: 'passed', outcome: result.value } : { state: 'failed', error: result.error });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const draft = toProviderDraft(values, status, { forSave: true });
    if (!draft.ok) {
      setErrors(draft.errors);
      return;
    }
    setSaving(true);
    setSaveError(null);
    const result = await providersActions.save({
      provider: draft.provider,
      ...(draft.apiKey === undefined ? {} : { apiKey: draft.apiKey }),
      removeKey: draft.removeKey,
    });
    setSaving(false);
    if (!result.ok) {
      setSaveError(result.error);
      return;
    }
    // The key went in; the field never shows it again.
    setValues((current) => ({ ...current, apiKey: '', removeKey: false }));
    setSaved(true);
    onSaved?.();
  };

  const fieldId = (name: string) => `${id}-${name}`;
  /** The model, base URL and key inputs: free text, never autofilled or spell-checked, wired to their Field. */
  const textInput = (
    name: 'model' | 'baseUrl' | 'apiKey',
    { type, placeholder, hinted }: { type?: 'url' | 'password'; placeholder: string; hinted: boolean },
  ) => (
    <input
      id={fieldId(name)}
      className="input"
      type={type}
      value={values[name]}
      placeholder={placeholder}
      autoComplete="off"
      spellCheck={false}
      aria-invalid={errors[name] !== undefined}
      aria-describedby={describedBy(fieldId(name), hinted, errors[name])}
      onChange={(event) => change({ [name]: event.target.value })}
    />
  );
  const detectAtTypedUrl = () =>
    void providersActions.detectOllama(values.baseUrl.trim() === '' ? undefined : values.baseUrl.trim());

  return (
    <form className="provider-form" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset className="provider-kinds">
        <legend>{t('provider.kind')}</legend>
        {providerKinds.map((kind) => (
          <label key={kind} className="provider-kind">
            <input
              type="radio"
              name={fieldId('kind')}
              value={kind}
              checked={values.kind === kind}
              onChange={() => change({ kind })}
            />
            {t(kindLabels[kind])}
          </label>
        ))}
      </fieldset>

      {values.kind === 'ollama' && (
        <OllamaModelPicker
          model={values.model}
          onPick={(model, vision) => change({ model, ...(vision === undefined ? {} : { vision }) })}
          onDetect={detectAtTypedUrl}
        />
      )}

      <Field id={fieldId('model')} label={t('provider.model')} error={errors.model}>
        {textInput('model', { placeholder: info.modelHint, hinted: false })}
      </Field>

      {asksVision(values.kind) && (
        <div className="provider-vision">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.vision}
              aria-describedby={fieldId('vision-hint')}
              onChange={(event) => change({ vision: event.target.checked })}
            />
            {t('images.supports')}
          </label>
          <p id={fieldId('vision-hint')} className="field-hint">
            {t('images.supportsExplain')}
          </p>
        </div>
      )}

      <Field
        id={fieldId('baseUrl')}
        label={t('provider.baseUrl')}
        error={errors.baseUrl}
        hint={info.defaultBaseUrl === null ? t('provider.baseUrlRequiredHint') : t('provider.baseUrlDefaultHint')}
      >
        {textInput('baseUrl', {
          type: 'url',
          placeholder: info.defaultBaseUrl ?? 'http://127.0.0.1:1234/v1',
          hinted: true,
        })}
      </Field>

      {info.keyAsked && (
        <Field
          id={fieldId('apiKey')}
          label={t('provider.apiKey')}
          error={errors.apiKey}
          hint={
            <>
              <p>
                {savedKey
                  ? t('provider.keySaved')
                  : info.keyRequired
                    ? t('provider.keyNeeded')
                    : t('provider.keyOptional')}
              </p>
              {status?.keyStorage === 'plaintext-file' && (
                <p className="warning-text" role="note">
                  {t('provider.keyPlaintextWarning')}
                </p>
              )}
            </>
          }
        >
          {textInput('apiKey', { type: 'password', placeholder: savedKey ? '••••••••' : '', hinted: true })}
          {savedKey && (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={values.removeKey}
                disabled={values.apiKey !== ''}
                onChange={(event) => change({ removeKey: event.target.checked })}
              />
              {t('provider.removeKey')}
            </label>
          )}
        </Field>
      )}

      <details className="provider-advanced">
        <summary>{t('provider.advanced')}</summary>
        {advancedFields.map(({ name, label, min, max, step, placeholder, placeholderKey }) => (
          <Field key={name} id={fieldId(name)} label={t(label)} error={errors[name]}>
            <input
              id={fieldId(name)}
              className="input input-number"
              type="number"
              min={min}
              max={max}
              step={step}
              value={values[name]}
              placeholder={placeholderKey === undefined ? placeholder : t(placeholderKey)}
              aria-invalid={errors[name] !== undefined}
              onChange={(event) => change({ [name]: event.target.value })}
            />
          </Field>
        ))}
      </details>

      <ConnectionTestStatus test={test} />
      {saveError !== null && (
        <div className="error-text" role="alert">
          <p>{t(errorMessageKey(saveError.code), { code: saveError.code })}</p>
          <p className="error-detail">{saveError.message}</p>
        </div>
      )}
      {saved && (
        <p className="success" role="status">
          {t('provider.saved')}
        </p>
      )}

      <div className="form-actions">
        <button type="button" className="button" onClick={() => void runTest()} disabled={test.state === 'testing'}>
          {t('provider.test')}
        </button>
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? t('provider.saving') : t('provider.save')}
        </button>
      </div>
    </form>
  );
}
