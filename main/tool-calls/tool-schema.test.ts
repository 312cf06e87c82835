import { zodSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assistantTools, codeTools } from '../tools';
import { toolJsonSchema } from './tool-schema';

describe('the JSON Schema a tool is shown with', () => {
  it.each([...assistantTools, ...codeTools].map((tool) => [tool.name, tool] as const))(
    '%s: the same as the AI SDK makes of its zod input',
    (_name, tool) => {
      expect(toolJsonSchema(tool)).toEqual(zodSchema(tool.input).jsonSchema);
    },
  );

  it('closes nested objects, records and unions as the AI SDK does', () => {
    const input = z.object({
      list: z.array(z.object({ a: z.string() })),
      either: z.union([z.object({ b: z.number() }), z.string()]),
      map: z.record(z.string(), z.object({ c: z.boolean() })),
      loose: z.object({ d: z.string() }).passthrough(),
    });
    const descriptor = { name: 'probe', input } as unknown as Parameters<typeof toolJsonSchema>[0];
    const made = toolJsonSchema(descriptor);
    expect(made).toEqual(zodSchema(input).jsonSchema);
    expect(made).toMatchObject({ additionalProperties: false });
  });

  it('keeps a schema given as it is (an MCP server’s tool)', () => {
    const jsonSchema = { type: 'object', properties: { q: { type: 'string' } } };
    const descriptor = { name: 'theirs', input: z.unknown(), jsonSchema } as unknown as Parameters<
      typeof toolJsonSchema
    >[0];
    expect(toolJsonSchema(descriptor)).toBe(jsonSchema);
  });
});
