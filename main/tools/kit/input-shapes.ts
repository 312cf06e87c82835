import { z } from 'zod';

/**
 * Pieces of tool inputs that several tools share. A count or size the model may choose: a whole
 * number within bounds, and what it gets when it says nothing (its JSON Schema shows all three).
 */
export const wholeNumberWithin = (min: number, max: number, fallback: number) =>
  z.number().int().min(min).max(max).default(fallback);
