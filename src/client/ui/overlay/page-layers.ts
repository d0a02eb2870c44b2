/**
 * Layers that belong to the page under them: the gallery (that page's images) and the picker
 * (that page's actions). Leaving the page (a link, or the browser's Back) closes them, the
 * picker as cancelled. The confirm dialog and toasts speak for the app, not the page, and stay.
 */
import { flushSync } from 'react-dom';
import { useGalleryStore } from '../gallery/gallery-store.ts';
import { usePickerStore } from '../picker/picker-store.ts';

export function closePageLayers(): void {
  const gallery = useGalleryStore.getState();
  const picker = usePickerStore.getState();
  if (!gallery.open && !picker.current) return;
  // Synchronously, so their body scroll lock is gone before the router saves the scroll
  // position of the page being left and restores the one of the page it goes to.
  flushSync(() => {
    gallery.close();
    picker.choose(null);
  });
}
