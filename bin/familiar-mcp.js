#!/usr/bin/env node
// The `familiar-mcp` command: the built MCP entry (run `npm run build` first in a source checkout).
import '../out/main/mcp.js';
