/**
 * Components whose code loads when first shown (the gallery, the login popup, the confirm
 * dialog, the picker, the AI widget). A chunk that fails to load (offline, a deploy removed
 * it) must not take the app down: the layer closes with a toast and is tried again next time.
 */
import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { loadChunk } from '../lib/chunk.ts';
import { toast } from './toast/toast-store.ts';

/** What to do once a LazyLayer has caught a failed load: make the next render load again. */
const retryAfterCatch = new WeakMap<object, () => void>();

/** A component whose code loads when first shown, or ahead when preload() is called. */
export interface LazyComponent<P extends object> {
  (props: P): ReactNode;
  /** Loads the code now: an instance mounted after it has come renders at once, without a suspension. */
  preload(): Promise<void>;
  /**
   * What a render that must not show the component without its code waits for (React's use):
   * the first load's settling, the same promise every time; undefined once the code is here, or
   * once that load has failed (what follows shows without it rather than wait again).
   */
  pending(): Promise<void> | undefined;
}

/**
 * React.lazy through loadChunk. A failed load is tried again by the next render after a LazyLayer
 * has caught it: replaced at once, React's own retry of the failed render would load again, and
 * again, and never reach the layer (while the network is gone, or the code with the old build).
 * Code already here is rendered as it is: through React.lazy even loaded code suspends a first
 * render once, and a page's hydration would leave that part to later.
 */
export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  const loadOnce = () =>
    loadChunk(load).then((module) => {
      loaded = module.default;
      return module;
    });
  const create = () =>
    lazy(() =>
      loadOnce().catch((error: unknown) => {
        if (typeof error === 'object' && error !== null) retryAfterCatch.set(error, () => (Current = create()));
        throw error;
      }),
    );
  let Current = create();
  function LazyComponent(props: P) {
    // Chosen once per instance: switching later would mount it again, its state lost.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Current);
    return <Component {...props} />;
  }
  LazyComponent.preload = () => loadOnce().then(
    () => undefined,
    () => undefined,
  );
  let firstLoad: Promise<void> | undefined;
  let firstLoadSettled = false;
  LazyComponent.pending = () => {
    if (loaded !== undefined || firstLoadSettled) return undefined;
    return (firstLoad ??= LazyComponent.preload().then(() => void (firstLoadSettled = true)));
  };
  return LazyComponent;
}

interface LazyLayerProps {
  children: ReactNode;
  /**
   * The user asked for this layer: its code did not load, so close it (a toast says why). It is
   * tried again the next time it opens. Without onError (something the user did not ask for)
   * the layer just stays away for this visit.
   */
  onError?: () => void;
  /** What shows instead when its code did not load (nothing, unless given). */
  failed?: ReactNode;
}

export class LazyLayer extends Component<LazyLayerProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    if (typeof error === 'object' && error !== null) retryAfterCatch.get(error)?.();
    const { onError } = this.props;
    if (!onError) return;
    toast.error(error instanceof Error ? error.message : String(error));
    onError();
    this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? (this.props.failed ?? null) : <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
