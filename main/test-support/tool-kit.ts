import { expect } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { Result } from '../../shared/result';
import { familiarPaths } from '../platform/storage/paths';
import type { Approval, Tool, ToolContext } from '../tools/define-tool';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import type { ToolLimits } from '../tools/kit/tool-limits';
import { createToolEnvironment, createToolServices } from '../tools/kit/tool-services';
import type { ToolServices, ToolServicesOptions } from '../tools/kit/tool-services';
import { createDirectRunner } from './direct-runner';
import type { DirectRunner } from './direct-runner';

/** Real folders for a test: a Familiar home (with its persona workspace) and a separate project. */
export interface ToolKit {
  readonly home: string;
  /** The open workspace (a project folder, or the persona folder itself with `openPersona`). */
  readonly workspace: string;
  readonly personaDir: string;
  readonly services: ToolServices;
  readonly env: ToolEnvironment;
  readonly runner: DirectRunner;
  ctx(conversationId?: string, signal?: AbortSignal): ToolContext;
  /** Runs a tool as the pipeline's run stage does (parsed arguments, timeout, abort); no policy. */
  call<I extends z.ZodType, O>(
    tool: Tool<I, O>,
    args: z.input<I>,
    approval?: Approval,
    conversationId?: string,
  ): Promise<Result<O>>;
  dispose(): Promise<void>;
}

export interface ToolKitOptions {
  readonly openPersona?: boolean;
  readonly limits?: Partial<ToolLimits>;
  readonly isConcealed?: (relPath: string) => boolean;
  readonly sandboxSettings?: ToolServicesOptions['sandboxSettings'];
  /** Variables passed to child processes by name, as settings.commands.passEnvironment. */
  readonly passEnvironment?: () => readonly string[];
  /** Folders below the home confined processes may read, as settings.commands.readableInHome. */
  readonly readableInHome?: () => readonly string[];
  /** Language servers: shorter timings for tests. */
  readonly lsp?: ToolServicesOptions['lsp'];
  /** search_in_code's engine (default 'auto': ripgrep when it is on PATH). */
  readonly searchEngine?: 'auto' | 'js';
  /** search_in_code's trigram index (settings search.index); off by default here so tests scan. */
  readonly searchIndex?: boolean;
  /** file_semantic_search's embedding model (default none: BM25 alone). */
  readonly embedder?: ToolServicesOptions['embedder'];
  /** The semantic index's file watcher (default on). */
  readonly watchSearchIndex?: boolean;
  /** Another kit's folder (its home and workspace): a restart of the app on the same data. */
  readonly reuseRootOf?: ToolKit;
  /** Files written into the workspace once the kit is ready (workspace-relative path → content). */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
}

/** For tests of the tools (not shipped anywhere): the environment the tool-call pipeline builds per call. */
export async function createToolKit(
  makeTempDir: (prefix?: string) => Promise<string>,
  options: ToolKitOptions = {},
): Promise<ToolKit> {
  const root =
    options.reuseRootOf === undefined
      ? await realpath(await makeTempDir('familiar-tools-'))
      : join(options.reuseRootOf.home, '..');
  const home = join(root, 'home');
  const paths = familiarPaths(home);
  await mkdir(paths.defaultWorkspace, { recursive: true });
  const workspace = options.openPersona === true ? paths.defaultWorkspace : join(root, 'project');
  await mkdir(workspace, { recursive: true });
  const services = createToolServices({
    paths,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.passEnvironment === undefined ? {} : { passEnvironment: options.passEnvironment }),
    ...(options.readableInHome === undefined ? {} : { readableInHome: options.readableInHome }),
    ...(options.lsp === undefined ? {} : { lsp: options.lsp }),
    workerThreads: 2,
    ...(options.searchEngine === undefined ? {} : { searchEngine: options.searchEngine }),
    searchIndex: () => options.searchIndex === true,
    ...(options.sandboxSettings === undefined ? {} : { sandboxSettings: options.sandboxSettings }),
    ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
    ...(options.watchSearchIndex === undefined ? {} : { watchSearchIndex: options.watchSearchIndex }),
  });
  const env = await createToolEnvironment({
    services,
    workspaceRoot: workspace,
    ...(options.isConcealed === undefined ? {} : { isConcealed: options.isConcealed }),
  });
  for (const [relPath, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(workspace, relPath)), { recursive: true });
    await writeFile(join(workspace, relPath), content);
  }
  const runner = createDirectRunner(services.limits);
  const ctx = (conversationId = 'c1', signal = new AbortController().signal): ToolContext => ({
    conversationId,
    signal,
    env,
  });
  return {
    home,
    workspace,
    personaDir: paths.defaultWorkspace,
    services,
    env,
    runner,
    ctx,
    call: (tool, args, approval, conversationId) => runner.run(tool, args, ctx(conversationId), approval),
    dispose: () => services.dispose(),
  };
}

/** Vitest's asymmetric matchers are typed `any`; these give them the type they stand in for. */
export const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;
export const containing = <T extends object>(value: T): T => expect.objectContaining<object>(value) as T;
export const anyNumber = (): number => expect.any(Number) as number;
