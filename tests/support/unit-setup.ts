// Unit-test setup (vitest project "unit", jsdom environment from vite.config.ts).
// IndexedDB for the local cache and the query persister.
import 'fake-indexeddb/auto';
import { configure } from '@testing-library/dom';

// findBy* and waitFor wait for what they look for as long as a busy machine may take to render
// it (their default, one second, failed runs on a loaded machine).
configure({ asyncUtilTimeout: 30_000 });

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

// jsdom has no layout: CodeMirror measures text through Range rects on its next animation frame,
// which may come after a test ended (an uncaught TypeError that fails the run). Empty rects.
if (typeof Range !== 'undefined' && typeof Range.prototype.getClientRects !== 'function') {
  Range.prototype.getClientRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
}

// The app says how it speaks of writes as it starts (app/main.tsx); components tested alone write too.
import { writeNotices } from '../../src/client/app/write-notices.ts';
import { setWriteNotices } from '../../src/client/entities/outbox/index.ts';

setWriteNotices(async () => writeNotices);

