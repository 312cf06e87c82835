import { join } from 'node:path';
import type { PersonaInfo } from '../../../shared/ipc/assistant';
import { estimateTokens } from '../../../shared/token-estimate';
import type { PersonaFolder } from './persona-folder';
import { DAILY_NOTES_DIR, inSystemPrompt, isMemoryFile, personaFileNames } from '../policy/persona-rules';
import { readPersonaFile } from './persona-files';
import { capFor, defaultPromptCaps } from './prompt-caps';
import type { PromptCaps } from './prompt-caps';
import { buildSystemPrompt } from './system-prompt';
import type { PromptFile, PromptSkill, SystemPrompt } from './system-prompt';

export interface PersonaService {
  readonly dir: string;
  /** The prompt for one request, read fresh so an edit (approved or by hand) applies at once. */
  systemPrompt(input: {
    memoryEnabled: boolean;
    tools: readonly { name: string; description: string }[];
    workspacePath: string;
    skills?: readonly PromptSkill[];
  }): Promise<SystemPrompt>;
  /** Sizes against caps for the meters; what the model sees with the memory switch as it is. */
  info(memoryEnabled: boolean): Promise<PersonaInfo>;
}

/** `caps` is read on every use: a change in settings applies to the next request. */
export function createPersonaService(
  folder: PersonaFolder,
  currentCaps: () => PromptCaps = () => defaultPromptCaps,
): PersonaService {
  const { dir } = folder;
  const promptFiles = async (memoryEnabled: boolean): Promise<PromptFile[]> => {
    const names = personaFileNames.filter((name) => inSystemPrompt(name) && (memoryEnabled || !isMemoryFile(name)));
    return Promise.all(names.map(async (name) => ({ name, text: await readPersonaFile(folder, name) })));
  };

  return {
    dir,
    async systemPrompt({ memoryEnabled, tools, workspacePath, skills }) {
      const caps = currentCaps();
      return buildSystemPrompt({
        files: await promptFiles(memoryEnabled),
        memoryEnabled,
        tools,
        workspacePath,
        caps,
        ...(skills === undefined ? {} : { skills }),
      });
    },
    async info(memoryEnabled) {
      const caps = currentCaps();
      const { meters } = buildSystemPrompt({
        files: await promptFiles(memoryEnabled),
        memoryEnabled,
        tools: [],
        workspacePath: '',
        caps,
      });
      const files = await Promise.all(
        personaFileNames.map(async (name) => {
          const path = join(dir, name);
          const exists = await folder.exists(name);
          const meter = meters.find((candidate) => candidate.name === name);
          if (meter !== undefined) return { ...meter, path, exists, inPrompt: true };
          // Hidden from the model by the memory switch: still measured for the user.
          const text = await readPersonaFile(folder, name);
          return {
            name,
            path,
            exists,
            chars: text.length,
            tokens: estimateTokens(text),
            cap: capFor(caps, name),
            includedChars: 0,
            omittedChars: 0,
            inPrompt: false,
          };
        }),
      );
      return { dir, dailyNotesDir: join(dir, DAILY_NOTES_DIR), files, totalCap: caps.total };
    },
  };
}
