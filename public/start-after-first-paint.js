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

if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
