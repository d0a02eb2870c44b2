/**
 * Layers that belong to the page under them: the gallery (that page's images) and the picker
 * (that page's actions). Leaving the page (a link, or the browser's Back) closes them, the
 * picker as cancelled. The confirm dialog and toasts speak for the app, not the page, and stay.
 */
import { useGalleryStore } from '../gallery/gallery-store.ts';
import { usePickerStore } from '../picker/picker-store.ts';

export function closePageLayers(): void {
  useGalleryStore.getState().close();
  usePickerStore.getState().settle(null);
}
