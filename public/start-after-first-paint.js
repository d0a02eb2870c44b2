const entry = document.querySelector('link[data-app-entry]');
const start = () => import(entry.href);
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
