import { ConfirmHost } from './dialog/ConfirmHost.tsx';
import { GalleryHost } from './gallery/GalleryHost.tsx';
import { OutboxHost } from './outbox-panel/OutboxHost.tsx';
import { PickerHost } from './picker/PickerHost.tsx';
import { ToastHost } from './toast/ToastHost.tsx';

/** Mount once at the root: every shared layer (toast, picker, confirm, gallery, the outbox's 待发送). */
export function UiHosts() {
  return (
    <>
      <PickerHost />
      <ConfirmHost />
      <GalleryHost />
      <OutboxHost />
      <ToastHost />
    </>
  );
}
