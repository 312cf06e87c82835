import { createContractApi } from './contract-api';

/**
 * Import this FIRST in a component test: it puts a contract-checked API where the preload puts the
 * real one, before renderer/ipc/familiar.ts looks for it.
 */
export const pageApi = createContractApi();
Object.defineProperty(window, 'familiar', { value: pageApi.api, configurable: true });

// jsdom has no modal dialogs: open/close is all the components rely on.
HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
  if (!this.open) return;
  this.open = false;
  this.dispatchEvent(new Event('close'));
};
