import { createContractApi } from './contract-api';

/**
 * Puts a contract-checked API where the preload puts the real one, before any module that binds
 * actions to `familiar` is loaded. Import this FIRST in a component test file.
 */
export const contract = createContractApi();
Object.defineProperty(window, 'familiar', { value: contract.api, configurable: true });
