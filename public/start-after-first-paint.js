const script = document.querySelector('script[data-app-entry]');
const entry = script?.getAttribute('data-app-entry');
// The page's own code comes beside the entry, not once the entry asks for it: a file a task, as
// each link starts its fetch at once, a few ms where the network is observed (as Lighthouse does,
// which counted a post's 15 links as one long task).
const preload = (hrefs) => {
  const href = hrefs.shift();
  if (!href) return;
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = href;
  document.head.append(link);
  setTimeout(preload, 0, hrefs);
};
const start = () => {
  const started = import(entry);
  preload(script?.dataset.pageScripts?.split(' ') ?? []);
  return started;
};

// A tap on the page before the app is up (a card, a like): the last one is kept, and the app
// answers it once it has taken over these very elements (src/client/app/early-tap.ts). A link
// and a text field work without the app.
const root = document.getElementById('root');
let lastTap;
const keepTap = (event) => {
  const target = event.target;
  if (!(target instanceof Element) || !root?.contains(target) || target.closest('a[href], input, textarea, select, label')) return;
  lastTap = target;
};
document.addEventListener('click', keepTap, true);
window.takeEarlyTap = () => {
  document.removeEventListener('click', keepTap, true);
  return lastTap;
};

if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
