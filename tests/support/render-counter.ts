/**
 * Counts the renders of one component type through the hook React DevTools uses, so a test
 * sees what React really rendered, in the real component, with nothing of it replaced.
 * Import this module before anything that loads react-dom: react-dom looks for the hook once,
 * when it loads.
 *
 * After each commit it walks the tree: a fiber of the watched type rendered in that commit when
 * its props object or its hook state is not the one seen after the last commit (a bail-out,
 * React.memo's included, keeps both; a render makes both new).
 */
interface Fiber {
  type: unknown;
  key: string | null;
  memoizedProps: unknown;
  memoizedState: unknown;
  child: Fiber | null;
  sibling: Fiber | null;
}

const watched = new Map<unknown, Map<string, number>>();
const seenByKey = new Map<string, { props: unknown; state: unknown }>();

function walk(fiber: Fiber | null): void {
  for (let node = fiber; node; node = node.sibling) {
    const counts = watched.get(node.type);
    if (counts) {
      const key = String(node.key);
      const before = seenByKey.get(key);
      if (!before || before.props !== node.memoizedProps || before.state !== node.memoizedState) {
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      seenByKey.set(key, { props: node.memoizedProps, state: node.memoizedState });
    }
    walk(node.child);
  }
}

(globalThis as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  isDisabled: false,
  supportsFiber: true,
  renderers: new Map(),
  inject: () => 1,
  checkDCE: () => {},
  onScheduleFiberRoot: () => {},
  onCommitFiberRoot: (_id: number, root: { current: Fiber }) => walk(root.current),
  onPostCommitFiberRoot: () => {},
  onCommitFiberUnmount: () => {},
  setStrictMode: () => {},
};

/**
 * Starts counting renders of `component` (for a React.memo component, pass the memo object: its
 * inner function is what renders). Returns the counts by the element's key.
 */
export function countRenders(component: unknown): Map<string, number> {
  const inner = (component as { type?: unknown; $$typeof?: symbol }).type ?? component;
  const counts = new Map<string, number>();
  watched.set(inner, counts);
  return counts;
}
