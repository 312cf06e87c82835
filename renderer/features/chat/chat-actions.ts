import { familiar } from '../../ipc/familiar';
import { createChatActions } from './chat-store';
import { createMcpPicksActions } from './mcp-picks-store';

/** The chat actions bound to the page's one API. */
export const chatActions = createChatActions(familiar);

/** The resources and prompts picked from the user's MCP servers, bound to the same API. */
export const mcpPicksActions = createMcpPicksActions(familiar);
