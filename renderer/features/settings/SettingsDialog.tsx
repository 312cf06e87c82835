import { Modal } from '../../app/Modal';
import type { DialogProps } from '../../app/Modal';
import { useT } from '../../i18n/i18n';
import { AboutSection } from './AboutSection';
import { AppearanceSection } from './AppearanceSection';
import { CodeSection } from './CodeSection';
import { McpServersSection } from '../mcp-servers/McpServersSection';
import { CommandsSection } from './CommandsSection';
import { MemorySection } from './MemorySection';
import { PersonaFilesSection } from './PersonaFilesSection';
import { PolicyEditor } from './PolicyEditor';
import { ProviderSection } from '../providers/ProviderSection';
import { SafetySection } from './SafetySection';
import { SchedulesSection } from '../schedules/SchedulesSection';
import { SettingsNav } from './SettingsNav';
import { SkillsSection } from './SkillsSection';
import { UploadsSection } from './UploadsSection';
import { WebSection } from './WebSection';
import { WorkspaceFolderSection } from './WorkspaceFolderSection';
import './settings.css';

/** Every setting in one Modal (Esc closes it); the sections mount only while it is open. */
export function SettingsDialog({ open, onClose }: DialogProps) {
  const t = useT();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('settings.title')}
      closeLabel={t('settings.close')}
      className="settings-dialog"
    >
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
          <WebSection />
          <CodeSection />
          <SkillsSection />
          <SchedulesSection />
          <McpServersSection />
          <AboutSection />
        </div>
      </div>
    </Modal>
  );
}
