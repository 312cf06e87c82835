import { describe, expect, it } from 'vitest';
import { applySettingsPatch, defaultSettings, homeEntrySchema, settingsPatchSchema } from './settings';

const accepted = (entry: string) => homeEntrySchema.safeParse(entry).success;

describe('commands.readableInHome', () => {
  it('is empty by default (and confined commands without network still ask)', () => {
    expect(defaultSettings().commands).toEqual({
      passEnvironment: [],
      allowedHosts: [],
      readableInHome: [],
      confinedOfflineWithoutAsking: false,
    });
  });

  it('takes folders and files below the home, a trailing slash dropped', () => {
    expect(homeEntrySchema.parse(' projects/shared/ ')).toBe('projects/shared');
    for (const entry of ['projects', '.config/myapp', '.sshd', 'my notes/2025', '.local/share/fonts', '.gitconfig.d']) {
      expect(accepted(entry), entry).toBe(true);
    }
  });

  it('refuses what is not a name below the home', () => {
    for (const entry of ['', '/', '/etc', '~/projects', 'C:/Users', '..', 'a/../..', './a', 'a//b', 'a\\b', 'a\0b']) {
      expect(accepted(entry), JSON.stringify(entry)).toBe(false);
    }
  });

  it('refuses the secrets, what is inside them and a folder holding one, whatever the case', () => {
    for (const entry of ['.ssh', '.ssh/id_ed25519', '.AWS', '.gnupg', '.config', '.config/gcloud/x', '.kube']) {
      expect(accepted(entry), entry).toBe(false);
    }
    for (const entry of ['.docker/config.json', '.netrc']) expect(accepted(entry), entry).toBe(false);
  });

  it("refuses Familiar's own data where the platforms keep it", () => {
    for (const entry of ['.familiar', '.familiar/settings.json', '.config/Familiar', 'Library', 'AppData/Roaming']) {
      expect(accepted(entry), entry).toBe(false);
    }
  });

  it('is changed by a patch without touching passEnvironment, and a bad entry fails the whole patch', () => {
    const before = applySettingsPatch(defaultSettings(), { commands: { passEnvironment: ['GH_TOKEN'] } });
    const patch = settingsPatchSchema.parse({ commands: { readableInHome: ['projects/'] } });
    expect(applySettingsPatch(before, patch).commands).toEqual({
      passEnvironment: ['GH_TOKEN'],
      allowedHosts: [],
      readableInHome: ['projects'],
      confinedOfflineWithoutAsking: false,
    });
    expect(settingsPatchSchema.safeParse({ commands: { readableInHome: ['projects', '.ssh'] } }).success).toBe(false);
  });
});

describe('applySettingsPatch', () => {
  it('merges each section, and the sections inside one, keeping what the patch does not name', () => {
    const before = applySettingsPatch(defaultSettings(), {
      schedules: { heartbeat: { intervalMinutes: 45 } },
      safety: { backups: { maxItems: 70 } },
      ui: { theme: 'dark' },
    });
    const after = applySettingsPatch(before, {
      schedules: { heartbeat: { enabled: true } },
      safety: { hardLinks: 'allow' },
      ui: { language: 'ru' },
    });
    expect(after.schedules.heartbeat).toEqual({
      ...defaultSettings().schedules.heartbeat,
      enabled: true,
      intervalMinutes: 45,
    });
    expect(after.safety).toEqual({
      hardLinks: 'allow',
      backups: { ...defaultSettings().safety.backups, maxItems: 70 },
    });
    expect(after.ui).toEqual({ theme: 'dark', language: 'ru' });
  });

  it('replaces the provider and every list whole', () => {
    const before = applySettingsPatch(defaultSettings(), { web: { allowedHosts: ['a.example', 'b.example'] } });
    const after = applySettingsPatch(before, { web: { allowedHosts: ['c.example'] }, provider: null });
    expect(after.web.allowedHosts).toEqual(['c.example']);
    expect(after.provider).toBeNull();
  });
});
