import { ConfirmHost } from './dialog/ConfirmHost.tsx';
import { GalleryHost } from './gallery/GalleryHost.tsx';
import { PickerHost } from './picker/PickerHost.tsx';
import { ToastHost } from './toast/ToastHost.tsx';

/** Mount once at the root: every shared layer (toast, picker, confirm, gallery). */
export function UiHosts() {
  return (
    <>
      <PickerHost />
      <ConfirmHost />
      <GalleryHost />
      <ToastHost />
    </>
  );
}
