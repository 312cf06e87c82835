import { useEffect, useState } from 'react';
import { useT } from '../../i18n/i18n';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (or API): fall back to a hidden selection, as the Edit menu would do.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

interface CopyButtonProps {
  readonly text: string;
  /** What is copied, for screen readers: "Copy code". */
  readonly label: string;
}

export function CopyButton({ text, label }: CopyButtonProps) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="button button-small copy-button"
      aria-label={label}
      onClick={() => void copyText(text).then((copied) => setState(copied ? 'copied' : 'failed'))}
    >
      <span aria-live="polite">
        {state === 'copied' ? t('markdown.copied') : state === 'failed' ? t('markdown.copyFailed') : t('markdown.copy')}
      </span>
    </button>
  );
}
