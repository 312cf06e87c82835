import { useEffect, useRef } from 'react';
import { useFocusTrap } from '../../app/use-focus-trap';
import { useT } from '../../i18n/i18n';
import { AboutSection } from './AboutSection';
import { AppearanceSection } from './AppearanceSection';
import { CodeSection } from './CodeSection';
import { CommandsSection } from './CommandsSection';
import { MemorySection } from './MemorySection';
import { PersonaFilesSection } from './PersonaFilesSection';
import { PolicyEditor } from './PolicyEditor';
import { ProviderSection } from '../providers/ProviderSection';
import { SafetySection } from './SafetySection';
import { SettingsNav } from './SettingsNav';
import { UploadsSection } from './UploadsSection';
import { WorkspaceFolderSection } from './WorkspaceFolderSection';
import './settings.css';

interface SettingsDialogProps {
  readonly open: boolean;
  readonly onClose: () => void;
}

/** A native modal <dialog>: the page behind is inert, Esc closes it; sections mount only while open. */
export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useFocusTrap(ref, open);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} className="dialog settings-dialog" aria-labelledby="settings-title" onClose={onClose}>
      <div className="settings-header">
        <h2 id="settings-title">{t('settings.title')}</h2>
        <button type="button" className="button" onClick={onClose} autoFocus>
          {t('settings.close')}
        </button>
      </div>
      {open && (
        <div className="settings-layout">
          <SettingsNav />
          <div className="settings-body">
            {/* The model comes first: nothing else works without it. */}
            <ProviderSection />
            <AppearanceSection />
            <MemorySection />
            <WorkspaceFolderSection />
            <PolicyEditor />
            <PersonaFilesSection />
            <UploadsSection />
            <SafetySection />
            <CommandsSection />
            <CodeSection />
            <AboutSection />
          </div>
        </div>
      )}
    </dialog>
  );
}
