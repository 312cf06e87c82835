import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library cleans up by itself only when test globals are on; Familiar imports them explicitly.
afterEach(cleanup);
