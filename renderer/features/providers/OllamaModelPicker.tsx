import { useT } from '../../i18n/i18n';
import { useProvidersStore } from './providers-store';

interface OllamaModelPickerProps {
  readonly model: string;
  /** `vision`: what Ollama said of the model's images, when it said. */
  readonly onPick: (model: string, vision: boolean | undefined) => void;
  /** Detects again at the base URL typed in the form (or the default). */
  readonly onDetect: () => void;
}

const gigabytes = (bytes: number | undefined) => (bytes === undefined ? '' : `${(bytes / 1e9).toFixed(1)} GB`);

/** What the Ollama detection found: its installed models to pick from, or how to start it. */
export function OllamaModelPicker({ model, onPick, onDetect }: OllamaModelPickerProps) {
  const t = useT();
  const ollama = useProvidersStore((state) => state.ollama);
  const found = ollama.found;
  return (
    <div className="ollama-picker" role="group" aria-labelledby="ollama-picker-status">
      <p id="ollama-picker-status" className="field-hint" role="status">
        {ollama.state === 'detecting'
          ? t('provider.ollamaDetecting')
          : found?.running === true
            ? t('provider.ollamaFound', { url: found.baseUrl, count: found.models.length })
            : ollama.state === 'done'
              ? t('provider.ollamaMissing')
              : ''}
      </p>
      {found?.running === true && found.models.length > 0 && (
        <ul className="ollama-models">
          {found.models.map((candidate) => (
            <li key={candidate.name}>
              <button
                type="button"
                className="button button-small"
                aria-pressed={candidate.name === model}
                onClick={() => onPick(candidate.name, candidate.vision)}
              >
                {candidate.name}
                <span className="muted">
                  {' '}
                  {[
                    candidate.parameterSize,
                    gigabytes(candidate.sizeBytes),
                    candidate.vision === true ? t('images.supports') : undefined,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button button-small" onClick={onDetect} disabled={ollama.state === 'detecting'}>
        {t('provider.ollamaDetect')}
      </button>
    </div>
  );
}
