// Unit-test setup (vitest project "unit", jsdom environment from vite.config.ts).
// IndexedDB for the local cache and the query persister.
import 'fake-indexeddb/auto';

// jsdom has <dialog> but not its modal methods. These stand-ins open and close it; what only a
// browser does (top layer, inert page, focus return, Escape firing `cancel`) is tested in
// Chromium (tests/e2e/modals.test.ts).
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
    this.dataset.shownModal = 'true';
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    delete this.dataset.shownModal;
    this.dispatchEvent(new Event('close'));
  };
}
