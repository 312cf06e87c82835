import { randomUUID } from 'node:crypto';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { FamiliarError } from '../../../shared/errors';
import type { EventPayload } from '../../../shared/ipc/contract';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { splitToolImage } from '../../../shared/tool-image';
import type { Dispatch } from '../../platform/ipc/dispatcher';
import type { EventHub } from '../../platform/ipc/event-hub';
import type { Logger } from '../../platform/logging/logger';
import type { SettingsStore } from '../../platform/storage/settings-store';
import type { Policy } from '../../../shared/policy';
import { concealedWhileMemoryOff, memoryOn, personaFileNames, personaFileOf } from '../../domain/policy/persona-rules';
import type { PersonaFileName } from '../../domain/policy/persona-rules';
import { isPersonaPath } from '../../domain/workspace/workspace-paths';
import type { WorkspaceService } from '../../domain/workspace/workspace-service';
import type { ToolExecutor } from '../../tool-calls/tool-executor';
import type { WorkspaceBinding } from './mcp-roots';
import { workspaceUnavailable } from './mcp-roots';
import { parentRel } from '../../platform/disk/path-syntax';

/** Persona files are addressed by name, whatever folder is open: they live in the Familiar home. */
export const PERSONA_URI_PREFIX = 'familiar://persona/';
/** resources/list names at most this many workspace files; the template reaches the rest. */
export const MAX_LISTED_RESOURCES = 200;

export interface McpResourcesOptions {
  readonly server: Server;
  /** The pipeline: every read is a read_file call, so the sandbox, deny-list, policy, memory switch and audit apply. */
  readonly executor: ToolExecutor;
  readonly binding: Pick<WorkspaceBinding, 'ready'>;
  readonly conversationId: string;
  readonly workspace: Pick<WorkspaceService, 'current'>;
  readonly settings: Pick<SettingsStore, 'get'>;
  readonly policy: () => Policy;
  readonly isIncognito: (conversationId: string) => boolean;
  /** Only to start the workspace watcher on a subscribed file's folder (workspace.listDir). */
  readonly dispatch: Dispatch;
  readonly events: EventHub;
  readonly logger: Logger;
}

type Target =
  | { readonly kind: 'persona'; readonly name: PersonaFileName }
  | { readonly kind: 'workspace'; readonly relPath: string };

const personaUri = (name: PersonaFileName) => `${PERSONA_URI_PREFIX}${name}`;
/** The listing's type by name (a read answers by the bytes: read_file sniffs them). */
const mimeByExtension: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};
const mimeTypeOf = (path: string) =>
  mimeByExtension[path.slice(path.lastIndexOf('.') + 1).toLowerCase()] ?? 'text/plain';
const toPosix = (path: string) => path.split(sep).join('/');

/** A Familiar error as the JSON-RPC error a resources request answers: the stable code rides in data. */
function refusal(error: FamiliarError): McpError {
  const rpcCode =
    error.code === 'file_not_found'
      ? -32002 // the spec's "resource not found"
      : error.code === 'internal_error'
        ? ErrorCode.InternalError
        : ErrorCode.InvalidParams;
  return new McpError(rpcCode, `${error.code}: ${error.message}`, { code: error.code, message: error.message });
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw refusal(result.error);
  return result.value;
}

/**
 * Persona files and workspace files as MCP resources. Reads go through the tool-call pipeline's
 * read_file (never fs): the same sandbox, deny-list (.env, keys), permission policy, memory switch
 * and audit line as a tool call. Subscriptions ride on the workspace watcher (workspace.changed)
 * and the persona history's change events (history.changed).
 */
export function serveResources(options: McpResourcesOptions): void {
  const { server, executor, conversationId } = options;
  server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });

  const memoryIsOn = () => memoryOn(options.settings.get().memory.enabled, options.isIncognito(conversationId));
  // Asked of the persona rules, not restated: USER.md and MEMORY.md exist for a client only while memory is on.
  const visiblePersona = () =>
    personaFileNames.filter((name) => !concealedWhileMemoryOff(options.policy(), memoryIsOn(), name));

  const run = (name: string, args: Record<string, unknown>) =>
    executor.execute({ conversationId, toolCallId: randomUUID(), name, args }, new AbortController().signal);

  const locate = (uri: string): Result<Target> => {
    if (uri.startsWith(PERSONA_URI_PREFIX)) {
      const name = personaFileOf(uri.slice(PERSONA_URI_PREFIX.length));
      if (name === undefined)
        return err('file_not_found', `${uri} is not a persona file (SOUL.md, USER.md, MEMORY.md).`);
      return ok({ kind: 'persona', name });
    }
    if (!uri.startsWith('file://')) {
      return err(
        'invalid_path',
        `${uri}: Familiar serves file:// URIs in its workspace and ${PERSONA_URI_PREFIX}* only.`,
      );
    }
    if (!options.binding.ready()) return workspaceUnavailable();
    let absolute: string;
    try {
      absolute = fileURLToPath(uri);
    } catch {
      return err('invalid_path', `${uri} is not a local file URI.`);
    }
    const root = options.workspace.current();
    const rel = relative(root, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      return err('invalid_path', `${uri} is outside the workspace ${root}; Familiar never leaves it.`);
    }
    return ok({ kind: 'workspace', relPath: toPosix(rel) });
  };
  const pathOf = (target: Target) => (target.kind === 'persona' ? target.name : target.relPath);

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const persona: Resource[] = visiblePersona().map((name) => ({
      uri: personaUri(name),
      name,
      title: `${name} (Familiar persona)`,
      mimeType: 'text/markdown',
    }));
    if (!options.binding.ready()) return { resources: persona };
    const root = options.workspace.current();
    const listed = await run('list_files', { path: '.', recursive: true, max_entries: MAX_LISTED_RESOURCES });
    if (!listed.ok) {
      options.logger.warn(`MCP resources/list could not list the workspace: ${listed.error.message}`);
      return { resources: persona };
    }
    const { entries } = listed.value as { entries: readonly { path: string; type: string; size?: number }[] };
    const files: Resource[] = entries
      // Persona names at the root are the overlay, listed above under their own URIs.
      .filter((entry) => entry.type === 'file' && !isPersonaPath(entry.path))
      .map((entry) => ({
        uri: pathToFileURL(join(root, entry.path)).href,
        name: entry.path,
        mimeType: mimeTypeOf(entry.path),
        ...(entry.size === undefined ? {} : { size: entry.size }),
      }));
    return { resources: [...persona, ...files] };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'file://{+path}',
        name: 'workspace-file',
        title: 'A file in the Familiar workspace',
        description:
          'Any text file, image or PDF (as its text) inside the open workspace, by its absolute file:// URI (read through the sandbox).',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const target = unwrap(locate(uri));
    const path = pathOf(target);
    const value = unwrap(await run('read_file', { path }));
    // A picture is the resource's bytes (a blob), as its type: the same read_file, the same caps.
    const picture = splitToolImage(value);
    if (picture !== undefined) return { contents: [{ uri, mimeType: picture.image.mime, blob: picture.image.data }] };
    const read = value as { kind: 'text' | 'pdf'; content?: string; text?: string; truncated: boolean };
    // A resource is the whole file or a refusal, never a silent part.
    if (read.truncated) {
      const parts = read.kind === 'pdf' ? 'start_page' : 'start_line';
      throw refusal({
        code: 'file_too_large',
        message: `${path} is longer than one read; use the read_file tool with ${parts} to read it in parts.`,
      });
    }
    // A PDF is offered as its text, page by page (read_file's page markers).
    if (read.kind === 'pdf') return { contents: [{ uri, mimeType: 'text/plain', text: read.text ?? '' }] };
    const named = mimeTypeOf(path);
    return {
      contents: [{ uri, mimeType: named.startsWith('text/') ? named : 'text/plain', text: read.content ?? '' }],
    };
  });

  const subscriptions = new Map<string, Target>();
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    const target = unwrap(locate(uri));
    // The same refusals as a read (outside, denied, concealed, missing), without reading the whole file.
    unwrap(await run('read_file', { path: pathOf(target), start_line: 1, end_line: 1 }));
    subscriptions.set(uri, target);
    // The watcher follows folders the tree has listed: listing the file's folder starts it watching.
    const folder = target.kind === 'persona' ? '' : parentRel(target.relPath);
    const watched = await options.dispatch(
      'workspace.listDir',
      { path: folder },
      { transport: 'direct', clientId: 'mcp' },
    );
    if (!watched.ok) options.logger.warn(`MCP subscription to ${uri} is not watched: ${watched.error.message}`);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  const notify = (uri: string) => {
    const target = subscriptions.get(uri);
    if (target === undefined) return;
    // A memory file hidden since the subscription stays silent.
    if (target.kind === 'persona' && !visiblePersona().includes(target.name)) return;
    server.sendResourceUpdated({ uri }).catch(() => undefined);
  };
  const uriOfChanged = (root: string, relPath: string) => {
    const persona = personaFileOf(relPath);
    return persona !== undefined ? personaUri(persona) : pathToFileURL(join(root, relPath)).href;
  };
  const listChanged = () => void server.sendResourceListChanged().catch(() => undefined);

  let memoryBefore = memoryIsOn();
  const stopListening = options.events.subscribe((name, payload) => {
    if (name === 'history.changed') {
      notify(personaUri((payload as EventPayload<'history.changed'>).file));
    } else if (name === 'workspace.changed') {
      const changes = payload as EventPayload<'workspace.changed'>;
      if (changes.root !== options.workspace.current()) return;
      const paths = [...changes.added.map((e) => e.path), ...changes.changed.map((e) => e.path), ...changes.removed];
      for (const path of paths) notify(uriOfChanged(changes.root, path));
      // Too many changes to name one by one: every subscription in a reloaded folder may have changed.
      for (const [uri, target] of subscriptions) {
        if (target.kind === 'workspace' && changes.reload.includes(parentRel(target.relPath))) notify(uri);
      }
    } else if (name === 'workspace.opened') {
      listChanged();
    } else if (name === 'settings.changed') {
      // The memory switch adds or removes USER.md and MEMORY.md.
      const memoryNow = memoryIsOn();
      if (memoryNow !== memoryBefore) listChanged();
      memoryBefore = memoryNow;
    }
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    previousOnClose?.();
    stopListening();
    subscriptions.clear();
  };
}
